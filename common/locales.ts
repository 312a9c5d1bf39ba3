/** The languages the product speaks; the first is the default and the spec's own. */
export const LOCALES = ['en', 'fr'] as const;

/** A language the product speaks, as a BCP 47 tag. */
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

/** Each language by its own name, as a switch shows it to someone who cannot read the other. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', fr: 'Français' };

/** True for a tag the product speaks. */
export const isLocale = (tag: unknown): tag is Locale =>
  typeof tag === 'string' && (LOCALES as readonly string[]).includes(tag);
