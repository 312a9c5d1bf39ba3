import { messages } from '@common/messages';
import { applyLocale, loadLocale } from '@/i18n/i18n';
import { localiseServerText } from '@/i18n/serverTexts';

/** Every sentence the server can write: each message, with its details filled in. */
const samples: Record<keyof typeof messages.server, string[]> = Object.fromEntries(
  Object.entries(messages.server).map(([key, message]) => {
    if (typeof message === 'string') return [key, [message]];
    const fill = message as (...args: unknown[]) => string;
    const args = (n: number) =>
      ({
        pointsAtDeleted: ['Owner', 'People'],
        unknownRoles: [['chef', 'intern']],
        notUnique: ['Serial number'],
        entityReferenced: [['Car.owner', 'Bike.owner']],
        policyDenied: [n === 1 ? 'update' : 'delete', ['contributor', 'lab']],
        policyDeniedResult: [n === 1 ? 'create' : 'update', ['contributor']],
        policyFields: [['Salary', 'Site'], ['contributor']],
      })[key] ?? [n, n + 3];
    return [key, [fill(...args(1)), fill(...args(2)), fill(...args(12345))]];
  }),
) as never;

const validation = [
  'is required',
  'must not be empty',
  'must be at most 1000 characters',
  'must be at most 10,000 characters',
  'must be at least 8 characters',
  'must be between 1 and 100',
  'must be a valid email address',
  'must be a web address (http or https)',
  'must be a valid ISBN-10 or ISBN-13',
  'may only hold letters, digits, _ and -',
  'must be unique',
  'a boolean field cannot be unique',
  'cannot be converted',
  'is not a role',
  'is not the id of a user',
  'is only set for new users',
  'is the id of line 12 too',
  'must be a record id (a UUID)',
  'must be the id of a record of Owners',
  'must be the id of a record',
  'must be a date and time with its time zone, such as 2026-11-26T14:30:00Z or 2026-11-26T15:30:00+01:00',
  'must be a number of days',
  'must be at most 365 days',
  'must change the name or the query',
  'must not start with ?',
  'must be one of the fields',
  'must be one of: red, green',
  'must name at least one route',
  'must name at most 10,000 records',
  'a relation or unique field has no default',
  ...Object.values(messages.validation),
  ...Object.values(messages.policy),
];

describe("the server's sentences", () => {
  afterEach(() => applyLocale('en'));

  it('stay as the server wrote them in English', () => {
    for (const text of [...Object.values(samples).flat(), ...validation])
      expect(localiseServerText(text)).toBe(text);
  });

  it('each have a French text, with their details in it', async () => {
    await loadLocale('fr');
    applyLocale('fr');
    for (const [key, texts] of Object.entries(samples))
      for (const text of texts) expect([key, localiseServerText(text)]).not.toEqual([key, text]);
    for (const text of validation) expect(localiseServerText(text)).not.toBe(text);

    expect(localiseServerText(messages.server.tooManyAttempts(42))).toBe(
      'Trop de tentatives\u00a0; réessayez dans 42 s',
    );
    expect(localiseServerText(messages.server.bulkRefused(1))).toBe(
      "Rien n'a été modifié\u00a0: 1 élément a été refusé",
    );
    expect(localiseServerText(messages.server.referenced(12345))).toBe(
      "12\u202f345 fiches pointent vers ceci\u00a0; retirez d'abord ces liens",
    );
    expect(localiseServerText(messages.server.notUnique('Serial number'))).toBe(
      'Une autre fiche a cette valeur de Serial number',
    );
    // A field's own uniqueness is not another record's.
    expect(localiseServerText('must be unique')).toBe('doit être unique');
    expect(localiseServerText('must name at least one route')).toBe(
      'doit nommer au moins une route',
    );
    expect(localiseServerText('a select needs at least one option')).toBe(
      'une liste de choix demande au moins une option',
    );
    expect(localiseServerText('must be at most 10,000 characters')).toBe(
      'doit faire au plus 10\u202f000 caractères',
    );
    // A sentence no rule knows is shown as written rather than lost.
    expect(localiseServerText('Something new from a newer server')).toBe(
      'Something new from a newer server',
    );
  });
});
