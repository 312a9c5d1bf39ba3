import en from '@/i18n/locales/en.json';
import fr from '@/i18n/locales/fr.json';
import {
  formatDate,
  formatDateTime,
  formatMoment,
  formatNumber,
  formatUtc,
  parseNumber,
} from '@/i18n/format';
import { applyLocale, browserLocale, i18n, loadLocale, type MessageId } from '@/i18n/i18n';
import { t } from '@/i18n/useT';

/** The names a compiled message's placeholders take (Lingui's compiled form, as the build ships). */
function placeholders(message: unknown, names = new Set<string>()): Set<string> {
  if (!Array.isArray(message)) return names;
  for (const part of message) {
    if (!Array.isArray(part)) continue;
    if (typeof part[0] === 'string') names.add(part[0]);
    for (const option of Object.values((part[2] as Record<string, unknown> | undefined) ?? {}))
      placeholders(option, names);
  }
  return names;
}

// Every text in every language: a French screen missing one would show its id.
describe('the catalogues', () => {
  it('give French every English message, and none the English lacks', () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
  });

  it('give each French message the placeholders of its English one', () => {
    for (const [id, message] of Object.entries(en)) {
      const french = (fr as Record<string, unknown>)[id];
      expect([id, [...placeholders(french)].sort()]).toEqual([
        id,
        [...placeholders(message)].sort(),
      ]);
    }
  });

  it('say so when a message is missing, instead of showing its id', () => {
    expect(() => t('shell.nothingOfTheSort' as MessageId)).toThrow(
      'The en catalogue has no message shell.nothingOfTheSort',
    );
  });
});

describe('plurals and numbers in messages', () => {
  afterEach(() => applyLocale('en'));

  it('take English plural forms and separators', () => {
    expect(t('records.deleted', { count: 1 })).toBe('Deleted 1 record');
    expect(t('records.deleted', { count: 0 })).toBe('Deleted 0 records');
    expect(t('records.deleted', { count: 12345 })).toBe('Deleted 12,345 records');
    expect(t('bulk.selectAll', { total: 1500 })).toBe('Select all 1,500 matching');
  });

  it('take French plural forms (0 and 1 are singular) and separators', async () => {
    await loadLocale('fr');
    applyLocale('fr');
    expect(t('bulk.selected', { count: 0 })).toBe('0 élément sélectionné');
    expect(t('bulk.selected', { count: 1 })).toBe('1 élément sélectionné');
    expect(t('bulk.selected', { count: 2 })).toBe('2 éléments sélectionnés');
    // French groups thousands with a narrow no-break space.
    expect(t('records.deleted', { count: 12345 })).toBe('12\u202f345 fiches supprimées');
    expect(document.documentElement.lang).toBe('fr');
  });
});

describe('dates and times', () => {
  // The browser's time zone: this test's is UTC.
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'UTC';
  });
  afterAll(() => {
    process.env.TZ = zone;
  });
  const moment = '2026-11-25T22:06:59.000Z';
  afterEach(() => applyLocale('en'));

  it('read as English readers write them, in the browser’s time zone', () => {
    expect(formatDateTime(moment)).toBe('Nov 25, 2026, 10:06 PM');
    expect(formatDate(moment)).toBe('Nov 25, 2026');
    expect(formatUtc(moment)).toBe('2026-11-25 22:06:59 UTC');
  });

  it('read as French readers write them', async () => {
    await loadLocale('fr');
    applyLocale('fr');
    expect(formatDateTime(moment)).toBe('25 nov. 2026, 22:06');
    expect(formatDate(moment)).toBe('25 nov. 2026');
    expect(formatUtc(moment)).toBe('2026-11-25 22:06:59 UTC');
  });

  it('within a week, as a relative time in the language in effect, by the calendar’s days', async () => {
    const now = Date.parse(moment);
    const later = (seconds: number) => now + seconds * 1000;
    const relatives = () => [
      formatMoment(moment, later(0)),
      formatMoment(moment, later(59.6)),
      formatMoment(moment, later(5 * 60 + 30)),
      // Past midnight, but under a day: hours.
      formatMoment(moment, later(3 * 3600)),
      // The next day, at 23:00.
      formatMoment(moment, Date.parse('2026-11-26T23:00:00Z')),
      // 26 hours later, past two midnights: two days.
      formatMoment(moment, later(26 * 3600)),
      formatMoment(moment, later(-3 * 86400)),
      formatMoment(moment, later(8 * 86400)),
    ];
    expect(relatives()).toEqual([
      'now',
      'now',
      '5 minutes ago',
      '3 hours ago',
      'yesterday',
      '2 days ago',
      'in 3 days',
      'Nov 25, 2026, 10:06 PM',
    ]);
    await loadLocale('fr');
    applyLocale('fr');
    expect(relatives()).toEqual([
      'maintenant',
      'maintenant',
      'il y a 5 minutes',
      'il y a 3 heures',
      'hier',
      'avant-hier',
      'dans 3 jours',
      '25 nov. 2026, 22:06',
    ]);
  });
});

describe('numbers', () => {
  afterEach(() => applyLocale('en'));
  const typed = ['3.75', '3,75', '1,000', '1,000.5', '1 000,5', '-2', '', 'abc', '1.2.3', '12,5'];

  it('written and read as English readers write them', () => {
    expect(formatNumber(1234.5)).toBe('1,234.5');
    expect(formatNumber(0.12345)).toBe('0.12345');
    expect(typed.map(parseNumber)).toEqual([3.75, NaN, 1000, 1000.5, NaN, -2, NaN, NaN, NaN, NaN]);
  });

  it('written and read as French readers write them, a point read as a decimal too', async () => {
    await loadLocale('fr');
    applyLocale('fr');
    expect(formatNumber(1234.5)).toBe('1\u202f234,5');
    // `1,000` is one, with three decimals, as French reads it.
    expect(typed.map(parseNumber)).toEqual([3.75, 3.75, 1, NaN, 1000.5, -2, NaN, NaN, NaN, 12.5]);
    expect(parseNumber('1\u202f000,5')).toBe(1000.5);
  });
});

describe('the language a page starts in', () => {
  it('is the first of the browser’s languages the product speaks', () => {
    expect(browserLocale(['de-DE', 'fr-CA', 'en'])).toBe('fr');
    expect(browserLocale(['en-GB', 'fr'])).toBe('en');
    expect(browserLocale(['de', 'it'])).toBe('en');
    expect(browserLocale([])).toBe('en');
  });
});

// The English catalogue holds the spec's texts word for word.
it('keeps the spec’s English texts', () => {
  expect(i18n.locale).toBe('en');
  expect(t('toast.sessionExpired')).toBe('Session expired');
  expect(t('toast.notAllowed')).toBe('You are not allowed to perform this action');
  expect(t('login.failed')).toBe('Authentication failed. Please check your credentials.');
});
