/**
 * Styles that take an element out of sight but leave it to screen readers and the keyboard
 * (a text read and not shown, an input behind its own label).
 */
export const screenReaderOnly = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
