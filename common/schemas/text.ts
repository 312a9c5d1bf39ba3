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
 * Zero-width characters (U+200B–U+200D, U+2060, U+FEFF), the directional marks
 * (U+200E, U+200F) and the bidirectional embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069): they make two names that look alike differ.
 */
const VISIBLE_NAME = /^[^\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]*$/;

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
 * {@link singleLineText} that also refuses zero-width and bidirectional-control characters,
 * which would let two different names look the same (or a name look like another).
 */
export const nameText = (params?: StringParams) =>
  singleLineText(params).regex(VISIBLE_NAME, {
    message: messages.validation.invisibleCharacters,
    abort: true,
  });
