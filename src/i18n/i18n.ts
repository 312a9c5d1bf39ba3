import { setupI18n, type Messages } from '@lingui/core';
import { DEFAULT_LOCALE, isLocale, type Locale } from '@common/locales';
import { loadChunk } from '@/lib/loadChunk';
import type en from './locales/en.json';

/** A message of the catalogues: `en.json` holds every one, each other catalogue the same. */
export type MessageId = keyof typeof en;

/** The values a message's placeholders take (`{name}`, `{count, plural, …}`). */
export type MessageValues = Record<string, string | number>;

/**
 * The texts in the language in effect (Lingui: ICU messages, plurals by `Intl.PluralRules`).
 * A message missing from the catalogue in effect is a bug: outside production it throws.
 */
export const i18n = setupI18n({
  missing:
    process.env.NODE_ENV === 'production'
      ? undefined
      : (locale, id) => {
          throw new Error(`The ${locale} catalogue has no message ${id}`);
        },
});

/** Where this browser keeps the language last chosen in it. */
export const LOCALE_STORAGE_KEY = 'locale';

/** The first of the browser's languages the product speaks (`fr-CA` is `fr`), else English. */
export function browserLocale(languages: readonly string[] = navigator.languages): Locale {
  for (const tag of languages) {
    const language = tag.toLowerCase().split('-')[0];
    if (isLocale(language)) return language;
  }
  return DEFAULT_LOCALE;
}

/** The language a page starts in: the one last chosen in this browser, else the browser's. */
export function startLocale(): Locale {
  const kept = window.localStorage.getItem(LOCALE_STORAGE_KEY);
  return isLocale(kept) ? kept : browserLocale();
}

/**
 * A language's texts come in two parts (`scripts/catalogue-loader.cjs`): `first`, what a
 * page shows before any screen has loaded (with MUI's and the DataGrid's own texts), and
 * `screens`, the rest, which loads with the first screen.
 */
type Part = 'first' | 'screens';

interface LocaleTexts {
  messages: Messages;
  /** MUI's and the DataGrid's own texts, for the theme; English is theirs by default. */
  mui?: object[];
}

// One chunk per language and part, loaded when first needed: no page carries every language.
const loaders: Record<Locale, Record<Part, () => Promise<LocaleTexts>>> = {
  en: {
    first: async () => ({
      messages: (await import(/* webpackChunkName: "messages-en" */ './locales/en.json?first'))
        .default,
    }),
    screens: async () => ({
      messages: (await import(/* webpackChunkName: "screens-en" */ './locales/en.json?screens'))
        .default,
    }),
  },
  fr: {
    first: async () => {
      const [catalogue, mui] = await Promise.all([
        import(/* webpackChunkName: "messages-fr" */ './locales/fr.json?first'),
        import(/* webpackChunkName: "messages-fr" */ './muiFrench'),
      ]);
      return { messages: catalogue.default, mui: mui.muiFrench };
    },
    screens: async () => ({
      messages: (await import(/* webpackChunkName: "screens-fr" */ './locales/fr.json?screens'))
        .default,
    }),
  },
};

const loaded = new Map<string, LocaleTexts>();
/** The parts this page needs: the first always, the screens' once one has loaded. */
const wanted = new Set<Part>(['first']);

/** True when every part of a language this page needs is loaded. */
export const isLoaded = (locale: Locale): boolean =>
  [...wanted].every((part) => loaded.has(`${locale}:${part}`));

/**
 * Loads a language's texts (the parts this page needs, once each), before it is put in
 * effect. A part wanted meanwhile (a screen loading) is loaded too; a caller about to put the
 * language in effect checks `isLoaded` in the same tick, and loads again if it is not.
 */
export async function loadLocale(locale: Locale): Promise<void> {
  while (!isLoaded(locale)) {
    await Promise.all(
      [...wanted].map(async (part) => {
        const key = `${locale}:${part}`;
        if (loaded.has(key)) return;
        // Tried again, as a screen's chunk is, when the network blips.
        const texts = await loadChunk(loaders[locale][part]);
        i18n.load(locale, texts.messages);
        loaded.set(key, texts);
      }),
    );
  }
}

/** Loads the screens' texts of the language in effect: with the first screen's chunk. */
export function loadScreenTexts(): Promise<void> {
  wanted.add('screens');
  return loadLocale(i18n.locale as Locale);
}

/** Puts a loaded language in effect for the texts and `<html lang>`. */
export function applyLocale(locale: Locale): void {
  i18n.activate(locale);
  document.documentElement.lang = locale;
}

/** MUI's texts for `locale` once it is loaded (none for English, MUI's own). */
export const muiLocalization = (locale: Locale): object[] =>
  loaded.get(`${locale}:first`)?.mui ?? [];
