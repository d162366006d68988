import { z } from 'zod';

/** `limit` and `offset` of every list; limit 0 means all (ARCHITECTURE.md). */
export const PageQuerySchema = z.object({
  limit: z.coerce.number().int().min(0).max(10_000).default(0),
  offset: z.coerce.number().int().min(0).default(0),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** A list answer: `{data, total}`. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), total: z.number().int() });

/** A create or change answer: `{status, data}`. */
export const statusWith = <T extends z.ZodType>(item: T) => z.object({ status: z.string(), data: item });

export const StatusSchema = z.object({ status: z.string() });
