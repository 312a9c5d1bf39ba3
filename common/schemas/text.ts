import { z } from 'zod';
import { messages } from '../messages';

// Matching control characters is this file's purpose.
/* eslint-disable no-control-regex */

/** Every C0 control character, DEL and every C1 control character. */
const SINGLE_LINE = /^[^\u0000-\u001F\u007F-\u009F]*$/;

/** The same, but tab, line feed and carriage return are allowed. */
const MULTI_LINE = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]*$/;
/* eslint-enable no-control-regex */

/**
 * Invisible characters: the default-ignorable code points (zero-width characters, soft
 * hyphen, combining grapheme joiner, Hangul fillers, tag characters, variation selectors, …)
 * and the bidirectional controls (marks, embeddings, overrides, isolates). They make two
 * names that look alike differ, or make a name read as something else.
 */
const VISIBLE_NAME = /^[^\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]*$/u;

/** Whether a name holds no invisible or text-direction character ({@link nameText}'s rule). */
export const isVisibleName = (name: string) => VISIBLE_NAME.test(name);

/**
 * The scripts a name's letters may be of: those Unicode recommends for identifiers (UAX #31,
 * table 4), which TS #39's restriction levels assume. Letters of the others (Lisu's and
 * Cherokee's look like Latin capitals) are refused.
 */
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Georgian',
  'Hangul',
  'Ethiopic',
  'Khmer',
  'Mongolian',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
].map((name) => ({ name, test: new RegExp(`\\p{scx=${name}}`, 'u') }));
/** Characters of every script (digits, punctuation, combining marks): they never mix. */
const ANY_SCRIPT = /[\p{scx=Common}\p{scx=Inherited}]/u;
/**
 * What a name may be written in (TS #39's "highly restrictive" level): one script, or Latin
 * with the scripts Japanese, Chinese or Korean are written in together.
 */
const ALLOWED_SETS = [
  ...SCRIPTS.map(({ name }) => [name]),
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
].map((names) => new Set(names));

/**
 * Whether a name is written in one recommended script (or an allowed mix), so that no letter
 * of it can be one of another script that looks the same: `admin` with a Cyrillic `а` is
 * refused. Judged in the form names are compared in (NFKC), where mathematical and
 * fullwidth letters are the letters they stand for.
 */
export function isSingleScript(name: string): boolean {
  const letterScripts = [...name.normalize('NFKC')]
    .filter((character) => !ANY_SCRIPT.test(character))
    .map((character) => SCRIPTS.filter(({ test }) => test.test(character)).map((s) => s.name));
  return ALLOWED_SETS.some((allowed) =>
    letterScripts.every((scripts) => scripts.some((script) => allowed.has(script))),
  );
}

type StringParams = Parameters<typeof z.string>[0];

/**
 * A single-line text from a request (a title, a search, a password, a token): refuses
 * every control character (C0, DEL, C1; tab and line breaks too). PostgreSQL refuses a
 * NUL outright, and the others have no business in a one-line value.
 *
 * The check runs first, on the text as sent, and stops the other checks on failure, so
 * the field gets one clear message. Chain `.trim()`, `.min()`, `.max()` after it.
 *
 * @example
 * title: singleLineText({ error: 'is required' }).trim().min(1, 'is required').max(300)
 */
export const singleLineText = (params?: StringParams) =>
  z
    .string(params)
    .regex(SINGLE_LINE, { message: messages.validation.controlCharacters, abort: true });

/**
 * A multi-line text from a request (a description, a record value): like
 * {@link singleLineText}, but keeps tab, line feed and carriage return.
 */
export const multiLineText = (params?: StringParams) =>
  z
    .string(params)
    .regex(MULTI_LINE, { message: messages.validation.controlCharacters, abort: true });

/**
 * A name people tell things apart by (a username, a role, entity or field name): a
 * {@link singleLineText} that also refuses invisible and bidirectional-control characters,
 * which would let two different names look the same (or a name look like another).
 */
export const nameText = (params?: StringParams) =>
  singleLineText(params).regex(VISIBLE_NAME, {
    message: messages.validation.invisibleCharacters,
    abort: true,
  });

/**
 * A name that stands for a person (a username, or one typed to sign in): a {@link nameText}
 * in one script ({@link isSingleScript}).
 */
export const personNameText = (params?: StringParams) =>
  nameText(params).refine(isSingleScript, {
    message: messages.validation.mixedScripts,
    abort: true,
  });
