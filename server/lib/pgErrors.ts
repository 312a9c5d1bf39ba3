/** The PostgreSQL error code of an error or of any error in its cause chain. */
export function pgErrorCode(error: unknown): string | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** A unique constraint refused the write (two rows would share a key). */
export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === '23505';
