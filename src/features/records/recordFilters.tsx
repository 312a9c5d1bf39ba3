import { Stack, TextField } from '@mui/material';
import {
  type GridFilterInputValueProps,
  type GridFilterOperator,
  getGridBooleanOperators,
  getGridDateOperators,
  getGridNumericOperators,
  getGridSingleSelectOperators,
  getGridStringOperators,
} from '@mui/x-data-grid';
import type { EntityField } from '@common/schemas/entities';
import { BETWEEN, gridOperatorsOf } from './recordListState';
import { type t as translate, useT } from '@/i18n/useT';

/** The input of a `between` filter: two bounds, either of which may be left empty. */
const rangeInputOf = (inputType: 'number' | 'date') =>
  function RangeInput({ item, applyValue }: GridFilterInputValueProps) {
    const t = useT();
    const [from = '', to = ''] = Array.isArray(item.value) ? (item.value as string[]) : [];
    const set = (at: 0 | 1, text: string) =>
      applyValue({ ...item, value: at === 0 ? [text, to] : [from, text] });
    // One above the other: side by side, a date does not fit the filter's width.
    return (
      <Stack spacing={0.5}>
        {(['records.from', 'records.to'] as const).map((label, at) => (
          <TextField
            key={label}
            label={t(label)}
            type={inputType}
            variant="standard"
            value={at === 0 ? from : to}
            onChange={(event) => set(at as 0 | 1, event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        ))}
      </Stack>
    );
  };

const numberRange = rangeInputOf('number');
const dateRange = rangeInputOf('date');

/** `between`: from and to, both included; the server filters (no filter runs in the page). */
const between = (
  InputComponent: GridFilterOperator['InputComponent'],
  label: string,
): GridFilterOperator => ({
  label,
  value: BETWEEN,
  getApplyFilterFn: () => null,
  InputComponent,
});

/**
 * A field's column's filters: the grid's own for its type, only those the server answers;
 * `t` names ours in the language in effect.
 */
export function filterOperatorsOf(field: EntityField, t: typeof translate): GridFilterOperator[] {
  const offered = gridOperatorsOf(field);
  const own = (() => {
    switch (field.type) {
      case 'number':
      case 'integer':
        return getGridNumericOperators();
      case 'date':
      case 'datetime':
        return getGridDateOperators(field.type === 'datetime');
      case 'select':
        return getGridSingleSelectOperators();
      case 'boolean':
        return getGridBooleanOperators();
      default:
        return getGridStringOperators();
    }
  })() as GridFilterOperator[];
  const operators = own.filter((operator) => offered.includes(operator.value));
  if (offered.includes(BETWEEN))
    operators.push(between(field.type === 'date' ? dateRange : numberRange, t('records.between')));
  return operators;
}
