/** A log destination that keeps every line, for tests that read what the server logged. */
export function captureLogs() {
  const lines: string[] = [];
  return {
    stream: { write: (line: string) => void lines.push(line) },
    /** Every line logged so far, as written (JSON text). */
    lines,
    /** The lines logged so far, parsed. */
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
