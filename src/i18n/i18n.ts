import { setupI18n, type Messages } from '@lingui/core';
import { DEFAULT_LOCALE, isLocale, type Locale } from '@common/locales';
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

/** A language's texts: its catalogue (built by `scripts/catalogue-loader.cjs`) and MUI's. */
interface LocaleTexts {
  messages: Messages;
  /** MUI's and the DataGrid's own texts, for the theme; English is theirs by default. */
  mui: object[];
}

// One chunk per language, loaded when first needed: no page carries every language.
const loaders: Record<Locale, () => Promise<LocaleTexts>> = {
  en: async () => ({
    messages: (await import(/* webpackChunkName: "messages-en" */ './locales/en.json')).default,
    mui: [],
  }),
  fr: async () => {
    const [catalogue, mui] = await Promise.all([
      import(/* webpackChunkName: "messages-fr" */ './locales/fr.json'),
      import(/* webpackChunkName: "messages-fr" */ './muiFrench'),
    ]);
    return { messages: catalogue.default, mui: mui.muiFrench };
  },
};

const loaded = new Map<Locale, LocaleTexts>();

/** Loads a language's texts (once): before it is put in effect, which is then immediate. */
export async function loadLocale(locale: Locale): Promise<void> {
  if (loaded.has(locale)) return;
  const texts = await loaders[locale]();
  i18n.load(locale, texts.messages);
  loaded.set(locale, texts);
}

/** Puts a loaded language in effect for the texts and `<html lang>`. */
export function applyLocale(locale: Locale): void {
  i18n.activate(locale);
  document.documentElement.lang = locale;
}

/** MUI's texts for `locale` once it is loaded (none for English, MUI's own). */
export const muiLocalization = (locale: Locale): object[] => loaded.get(locale)?.mui ?? [];
