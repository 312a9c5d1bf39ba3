import type { EntityField } from '@common/schemas/entities';
import { editValueOf } from '@/features/records/recordColumns';
import type { RecordRow } from '@/features/records/useRecordGrid';
import {
  BETWEEN,
  filterParams,
  gridOperatorsOf,
  paramsFromView,
  viewFromParams,
} from '@/features/records/recordListState';

const fields: EntityField[] = [
  { name: 'code', label: 'Code' },
  { name: 'qty', label: 'Quantity', type: 'number' },
  { name: 'taken', label: 'Taken', type: 'date' },
  { name: 'at', label: 'At', type: 'datetime' },
  { name: 'status', label: 'Status', type: 'select', options: ['new', 'done'] },
  { name: 'ok', label: 'OK', type: 'boolean' },
  { name: 'site', label: 'Site', type: 'relation', target: 'Site' },
];
const field = (name: string) => fields.find((one) => one.name === name)!;
const query = (text: string) => new URLSearchParams(text);

describe("the record grid's view in the URL", () => {
  it('offers each type only the filters the server answers', () => {
    expect(gridOperatorsOf(field('code'))).toEqual([
      'contains',
      'equals',
      'doesNotEqual',
      'isEmpty',
      'isNotEmpty',
    ]);
    expect(gridOperatorsOf(field('qty'))).toContain(BETWEEN);
    expect(gridOperatorsOf(field('taken'))).toContain(BETWEEN);
    expect(gridOperatorsOf(field('at'))).not.toContain(BETWEEN);
    expect(gridOperatorsOf(field('status'))).toEqual([
      'is',
      'not',
      'isAnyOf',
      'isEmpty',
      'isNotEmpty',
    ]);
    expect(gridOperatorsOf(field('ok'))).toEqual(['is']);
    expect(gridOperatorsOf(field('site'))).toEqual(['isEmpty', 'isNotEmpty']);
  });

  it.each([
    ['code', { operator: 'contains', value: '50%_' }, [['filter[code][contains]', '50%_']]],
    ['qty', { operator: '>=', value: '9' }, [['filter[qty][gte]', '9']]],
    ['qty', { operator: '=', value: 'x' }, []],
    [
      'taken',
      { operator: BETWEEN, value: ['2026-03-01', '2026-04-30'] },
      [
        ['filter[taken][gte]', '2026-03-01'],
        ['filter[taken][lte]', '2026-04-30'],
      ],
    ],
    [
      'taken',
      { operator: BETWEEN, value: ['', '2026-04-30'] },
      [['filter[taken][lte]', '2026-04-30']],
    ],
    // The grid's date input gives a UTC midnight.
    [
      'taken',
      { operator: 'after', value: new Date('2026-03-01') },
      [['filter[taken][gt]', '2026-03-01']],
    ],
    [
      'at',
      { operator: 'onOrAfter', value: new Date('2026-03-01T10:00:00Z') },
      [['filter[at][gte]', '2026-03-01T10:00:00.000Z']],
    ],
    [
      'status',
      { operator: 'isAnyOf', value: ['new', 'done'] },
      [['filter[status][in]', 'new,done']],
    ],
    ['ok', { operator: 'is', value: 'false' }, [['filter[ok][eq]', 'false']]],
    ['site', { operator: 'isNotEmpty' }, [['filter[site][empty]', 'false']]],
    // Not typed yet: nothing to ask.
    ['code', { operator: 'equals', value: '' }, []],
  ])('words a filter on %s as the API reads it: %j', (name, filter, params) => {
    expect(filterParams(field(name), { field: name, ...filter })).toEqual(params);
  });

  it('reads back the view it writes, leaving defaults out of the URL', () => {
    const view = {
      page: 3,
      perPage: 100,
      sort: { field: 'qty', sort: 'desc' as const },
      q: 'lyon blood',
      filter: { field: 'taken', operator: BETWEEN, value: ['2026-03-01', '2026-04-30'] },
    };
    const params = paramsFromView(fields, view);
    expect(params.toString()).toBe(
      'page=3&perPage=100&sort=qty%3Adesc&q=lyon+blood&filter%5Btaken%5D%5Bgte%5D=2026-03-01&filter%5Btaken%5D%5Blte%5D=2026-04-30',
    );
    expect(viewFromParams(fields, params)).toEqual(view);
    expect(paramsFromView(fields, viewFromParams(fields, query(''))).toString()).toBe('');
    // The request always names its page: the server answers a page, not the plain array.
    expect(paramsFromView(fields, viewFromParams(fields, query('')), true).toString()).toBe(
      'page=1&perPage=50',
    );
  });

  it('drops from a URL what the view cannot use', () => {
    const view = viewFromParams(
      fields,
      query(
        'page=0&perPage=7&sort=nope:asc&filter[nope][eq]=1&filter[qty][lt]=5&filter[code][eq]=a',
      ),
    );
    expect(view).toEqual({
      page: 1,
      perPage: 50,
      sort: undefined,
      q: '',
      // One filter at a time: the first field's.
      filter: { field: 'qty', operator: '<', value: '5' },
    });
  });
});

describe("a value as its column's editor holds it", () => {
  const row: RecordRow = {
    _id: 'r1',
    isNew: false,
    values: { site: 'north-id' },
    display: { site: 'North' },
    _version: 1,
  };
  it.each([
    ['taken', '2026-03-09', new Date(2026, 2, 9)],
    ['at', '2026-03-09T14:05:00.000Z', new Date('2026-03-09T14:05:00.000Z')],
    ['site', 'north-id', { id: 'north-id', label: 'North' }],
    // A record no row shows: named by its id until the page comes.
    ['site', 'south-id', { id: 'south-id', label: 'south-id' }],
    ['site', null, null],
    ['ok', null, false],
    ['qty', 12, 12],
    ['code', undefined, ''],
  ])('%s %j', (name, value, held) => {
    expect(editValueOf(field(name), value, [row])).toEqual(held);
  });
});
