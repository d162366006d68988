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

/** True when a row refers to one that does not exist (or a referenced row is still referred to). */
export function isForeignKeyViolation(err: unknown): boolean {
  return codeOf(err) === '23503';
}

/** True when the database broke a deadlock by failing this statement; it may be retried. */
export function isDeadlock(err: unknown): boolean {
  return codeOf(err) === '40P01';
}

/**
 * True when the database refused the values themselves (data exception, integrity, a program
 * limit such as jsonb depth): sending the same rows again fails again, other rows may not.
 */
export function isDataError(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && ['22', '23', '54'].includes(code.slice(0, 2));
}

/**
 * The client error a database refusal stands for, when a route let one through unhandled: bad
 * values are bad input (400), integrity refusals a conflict (409). Undefined for anything else.
 */
export function clientErrorOf(err: unknown): { status: 400 | 409; userMessage: string } | undefined {
  const code = codeOf(err);
  if (code?.startsWith('22')) return { status: 400, userMessage: 'Invalid input' };
  if (code?.startsWith('23')) return { status: 409, userMessage: 'The change conflicts with existing data' };
  return undefined;
}
