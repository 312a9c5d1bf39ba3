import type { Version } from '@common/schemas/versions';
import type { FieldType } from '@common/schemas/fieldValues';
import { formatDate, formatDateTime } from '@/i18n/format';
import { HIDDEN_VERSION_KEYS, valueShower, versionFields, versionValue } from '@/lib/versions';

const version = (document: Record<string, unknown>): Version => ({
  _id: 'v1',
  action: 'update',
  changes: [],
  updatedBy: 'ada',
  versionDate: '2026-01-01T00:00:00.000Z',
  document,
});

describe('the version view', () => {
  it('hides _id, entity_name, path, __v and lastModified', () => {
    expect([...HIDDEN_VERSION_KEYS].sort()).toEqual([
      '__v',
      '_id',
      'entity_name',
      'lastModified',
      'path',
    ]);
    expect(
      versionFields([
        version({
          _id: '1',
          entity_name: 'Car',
          path: 'x',
          __v: 0,
          lastModified: 'y',
          make: 'Ford',
        }),
      ]),
    ).toEqual(['make']);
  });

  it("shows every field of every snapshot, and 'No changes' where a snapshot lacks one", () => {
    const versions = [version({ make: 'Ford', colour: 'red' }), version({ make: 'Fiat' })];
    expect(versionFields(versions)).toEqual(['make', 'colour']);
    const show = valueShower(versions);
    expect(versionValue(versions[1]!, 'colour', show)).toBe('No changes');
    expect(versionValue(versions[0]!, 'colour', show)).toBe('red');
  });

  it('shows empty values as empty and objects as JSON', () => {
    const show = valueShower([]);
    expect(versionValue(version({ author: null }), 'author', show)).toBe('');
    expect(versionValue(version({ tags: ['a'] }), 'tags', show)).toBe('["a"]');
  });

  it("shows a record's typed values as a reader reads them, relations by their display value", () => {
    const types: Record<string, FieldType> = {
      taken: 'date',
      logged: 'datetime',
      sealed: 'boolean',
      site: 'relation',
    };
    const SITE = '5b1e0c62-3c59-4f6e-9a43-5d2a0e7c1a01';
    const record = (fields: object, display?: object) =>
      version({ _id: 'r', entity_name: 'Sample', fields, _display: display, _version: 1 });
    const versions = [
      record({
        taken: '2026-03-09',
        logged: '2026-03-09T14:05:00.000Z',
        sealed: false,
        code: '2026-03-09',
      }),
      record({ site: SITE, sealed: true }, { site: 'North' }),
    ];
    const show = valueShower(versions, { typeOf: (field) => types[field] });
    const [newest, oldest] = versions as [Version, Version];
    // Dates and times as the language in effect writes them (`Mar 9, 2026`), in local time.
    expect(versionValue(newest, 'taken', show)).toBe(formatDate(new Date(2026, 2, 9)));
    expect(versionValue(newest, 'logged', show)).toBe(
      formatDateTime(new Date('2026-03-09T14:05:00.000Z')),
    );
    expect(versionValue(newest, 'sealed', show)).toBe('no');
    expect(versionValue(oldest, 'sealed', show)).toBe('yes');
    // A text that looks like a date stays as typed.
    expect(versionValue(newest, 'code', show)).toBe('2026-03-09');
    // A value from before its field changed type, as it was.
    expect(show('taken', 'last week')).toBe('last week');
    expect(show('sealed', 'no')).toBe('no');
    expect(show('logged', '2026')).toBe('2026');
    // By the label another version carries, in the change as in the snapshot.
    expect(show('site', SITE)).toBe('North');
    expect(versionValue(oldest, 'site', show)).toBe('North');
  });
});
