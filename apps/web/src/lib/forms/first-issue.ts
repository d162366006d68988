import type { z } from 'zod';

/** The first message `schema` gives for `value`, or undefined when the value passes. */
export function firstIssue(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}
