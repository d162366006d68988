/** The PostgreSQL error code of a database error (PostgreSQL or PGlite, possibly wrapped by Drizzle). */
function codeOf(err: unknown): string | undefined {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** True when a database error is a unique violation. */
export function isUniqueViolation(err: unknown): boolean {
  return codeOf(err) === '23505';
}

/** True when the database broke a deadlock by failing this statement; it may be retried. */
export function isDeadlock(err: unknown): boolean {
  return codeOf(err) === '40P01';
}
