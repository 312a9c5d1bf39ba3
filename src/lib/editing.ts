import { compareValues } from '@common/versionChanges';
import { t } from '@/i18n/useT';
import { displayValue } from './versions';

/**
 * Who is editing `what`, as a sentence: `ada is editing «Car».`, `ada and bo are editing it.`
 * `what` is in the language in effect, a noun phrase with its article (`this book`, `ce livre`).
 */
export function editingSentence(names: string[], what: string): string {
  const who =
    names.length > 1
      ? t('edit.namesAnd', { rest: names.slice(0, -1).join(', '), last: names.at(-1)! })
      : (names[0] ?? '');
  return t('edit.isEditing', { who, count: names.length, what });
}

/** What is typed in an edit, as lines a person can paste: `Label: value`. */
export function valuesAsText(
  values: Record<string, unknown>,
  labelOf: (field: string) => string = (field) => field,
): string {
  return Object.entries(values)
    .map(([field, value]) =>
      t('edit.valueLine', { label: labelOf(field), value: displayValue(value) }),
    )
    .join('\n');
}

/**
 * `mine` rebased on `theirs`: the fields I changed since `base` as I have them, every other
 * field as they have it (so a save of mine keeps their changes to fields I left alone).
 */
export function rebased<Values extends Record<string, unknown>>(
  base: Values,
  mine: Values,
  theirs: Values,
): Values {
  const changed = new Set(compareValues(base, mine).map((change) => change.field));
  const fields = new Set([...Object.keys(theirs), ...Object.keys(mine)]);
  return Object.fromEntries(
    [...fields].map((field) => [field, changed.has(field) ? mine[field] : theirs[field]]),
  ) as Values;
}

/** `record` without `key` (the same record when it has none). */
export function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  return Object.fromEntries(Object.entries(record).filter(([known]) => known !== key));
}
