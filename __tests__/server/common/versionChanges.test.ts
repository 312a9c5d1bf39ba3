import { compareValues, comparedValues } from '@common/versionChanges';

describe('comparing versions', () => {
  it("compares a record's field values, and any other document but its _id", () => {
    expect(
      comparedValues({ _id: 'r1', entity_name: 'Car', fields: { make: 'Ford', colour: '' } }),
    ).toEqual({ make: 'Ford', colour: '' });
    const entity = { _id: 'e1', name: 'Car', fields: [{ name: 'make', label: 'Make' }] };
    expect(comparedValues(entity)).toEqual({ name: 'Car', fields: entity.fields });
  });

  it('lists what changed A–Z, old → new, and treats missing, null and empty text alike', () => {
    expect(
      compareValues(
        { title: 'Old', author: null, isbn: '', tags: ['a'] },
        { title: 'New', isbn: null, tags: ['a', 'b'], colour: 'red' },
      ),
    ).toEqual([
      { field: 'colour', from: null, to: 'red' },
      { field: 'tags', from: ['a'], to: ['a', 'b'] },
      { field: 'title', from: 'Old', to: 'New' },
    ]);
    expect(compareValues({ a: 1 }, { a: 1 })).toEqual([]);
  });
});
