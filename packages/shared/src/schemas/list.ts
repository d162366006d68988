import { z } from 'zod';

/** `limit` and `offset` of every list; limit 0 means all (ARCHITECTURE.md). */
export const PageQuerySchema = z.object({
  limit: z.coerce.number().int().min(0).max(10_000).default(0),
  offset: z.coerce.number().int().min(0).default(0),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** A list answer: `{data, total}`. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), total: z.number().int() });

/**
 * How far past a page a capped list counts (the audit log, alerts): `total` is exact up to
 * `offset + limit + COUNT_CAP`, and past that it is a lower bound.
 */
export const COUNT_CAP = 1_000;

/**
 * A page of a capped list: `{data, total, total_is_lower_bound}`. When more `noun` match than were
 * counted, `total` is the bound and the flag is true ("1,050+"); pages past it still answer.
 */
export const cappedListOf = <T extends z.ZodType>(item: T, noun: string) =>
  listOf(item).extend({
    total_is_lower_bound: z
      .boolean()
      .describe(
        `True when more ${noun} match than were counted: \`total\` is then a lower bound (offset + limit + 1,000)`,
      ),
  });

/** A create or change answer: `{status, data}`. */
export const statusWith = <T extends z.ZodType>(item: T) => z.object({ status: z.string(), data: item });

export const StatusSchema = z.object({ status: z.string() });
