import type { GridColDef } from '@mui/x-data-grid';
import {
  arrangeColumns,
  layoutFromParams,
  paramsOfLayout,
  viewKeyOf,
  visibilityOf,
  withLayoutOf,
} from '@/lib/gridLayout';

const columns: GridColDef[] = [
  { field: 'expand', hideable: false, width: 56 },
  { field: 'value:name', headerName: 'Name', flex: 1 },
  { field: 'value:price', headerName: 'Price', width: 100 },
  { field: 'value:notes', headerName: 'Notes', width: 200 },
  { field: 'actions', type: 'actions', width: 120 },
];
const fields = (list: GridColDef[]) => list.map((column) => column.field);

describe('a grid layout in the URL', () => {
  it('reads the columns shown, in order, and widths by their short names', () => {
    const layout = layoutFromParams(columns, {
      columns: 'price,name',
      widths: 'price:150,name:9999,nope:100',
    });
    expect(layout).toEqual({
      shown: ['value:price', 'value:name'],
      widths: { 'value:price': 150 },
    });
    expect(paramsOfLayout(layout)).toEqual([
      ['columns', 'price,name'],
      ['widths', 'price:150'],
    ]);
  });

  it('ignores a list that names no known column (never an empty grid)', () => {
    expect(layoutFromParams(columns, { columns: 'nope,expand', widths: null })).toEqual({
      shown: undefined,
      widths: {},
    });
  });

  it('arranges the shown columns in order, the hidden ones after, fixed ones on their side', () => {
    const layout = { shown: ['value:notes', 'value:name'], widths: { 'value:name': 300 } };
    const arranged = arrangeColumns(columns, layout);
    expect(fields(arranged)).toEqual([
      'expand',
      'value:notes',
      'value:name',
      'value:price',
      'actions',
    ]);
    // A width set by hand replaces the column's flex.
    expect(arranged[2]).toMatchObject({ width: 300, flex: undefined });
    expect(visibilityOf(columns, layout)).toEqual({
      'value:name': true,
      'value:price': false,
      'value:notes': true,
    });
  });

  it('hides the columns hidden by default only while the URL names none', () => {
    expect(visibilityOf(columns, { widths: {} }, ['value:notes'])['value:notes']).toBe(false);
    const shown = { shown: ['value:notes'], widths: {} };
    expect(visibilityOf(columns, shown, ['value:notes'])['value:notes']).toBe(true);
  });

  it('keeps the layout when a list writes its view, and compares views without their page', () => {
    const current = new URLSearchParams('q=a&columns=name&page=3');
    expect(withLayoutOf(current, new URLSearchParams('q=b')).toString()).toBe('q=b&columns=name');
    expect(viewKeyOf('sort=x&q=a&page=2')).toBe(viewKeyOf('q=a&sort=x'));
    expect(viewKeyOf('q=a')).not.toBe(viewKeyOf('q=b'));
  });
});
