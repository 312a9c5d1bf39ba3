/**
 * Call before the item at `index` of `list` (a list whose items take `tabIndex={-1}`) is
 * removed. Returns what to call once it has gone: it puts the focus on the item after it,
 * or on the one before when it was the last, so a keyboard user stays where they were
 * instead of starting again from the top of the page.
 */
export function focusNeighbourLater(list: HTMLElement | null, index: number) {
  const items = list ? [...list.children] : [];
  const neighbour = (items[index + 1] ?? items[index - 1]) as HTMLElement | undefined;
  return () => neighbour?.focus();
}
