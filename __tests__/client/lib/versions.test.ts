import type { Version } from '@common/schemas/versions';
import { HIDDEN_VERSION_KEYS, versionFields, versionValue } from '@/lib/versions';

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
    expect(versionValue(versions[1]!, 'colour')).toBe('No changes');
    expect(versionValue(versions[0]!, 'colour')).toBe('red');
  });

  it('shows empty values as empty and objects as JSON', () => {
    expect(versionValue(version({ author: null }), 'author')).toBe('');
    expect(versionValue(version({ tags: ['a'] }), 'tags')).toBe('["a"]');
  });
});
