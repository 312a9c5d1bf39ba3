/** The PostgreSQL error in an error's cause chain. */
function pgError(error: unknown): { code: string; constraint?: unknown } | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return { code, constraint };
  }
  return undefined;
}

/** The PostgreSQL error code of an error or of any error in its cause chain. */
export const pgErrorCode = (error: unknown) => pgError(error)?.code;

/** A unique constraint (this one, when named) refused the write (two rows would share a key). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const found = pgError(error);
  return found?.code === '23505' && (constraint === undefined || found.constraint === constraint);
}
