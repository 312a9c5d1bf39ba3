/** Who is editing `what`, as a sentence: `ada is editing «Car».`, `ada and bo are editing it.` */
export function editingSentence(names: string[], what: string): string {
  const who =
    names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}` : (names[0] ?? '');
  return `${who} ${names.length > 1 ? 'are' : 'is'} editing ${what}.`;
}

/** What is typed in an edit, as lines a person can paste: `Label: value`. */
export function valuesAsText(
  values: Record<string, unknown>,
  labelOf: (field: string) => string = (field) => field,
): string {
  return Object.entries(values)
    .map(([field, value]) => `${labelOf(field)}: ${shown(value)}`)
    .join('\n');
}

const shown = (value: unknown) =>
  value === null || value === undefined
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
