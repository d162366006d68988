// Saved views of the device list and "select all matching" (issue 27).
import { z } from 'zod';
import { DeviceListQuerySchema, type DeviceListQuery } from './device.ts';

/** Longest view name and query string a view keeps. */
export const VIEW_NAME_MAX = 64;
export const VIEW_QUERY_MAX = 2_000;
/** Parameters that are not part of a view: the page (the API's and the console's), and the view itself. */
const NOT_IN_VIEW = new Set(['limit', 'offset', 'page', 'size', 'view']);

/** A query string as the list reads it: a repeated key is several values (OR). */
export function queryObject(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(query)) {
    const had = out[k];
    out[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
  }
  return out;
}

/** The filter and sort of a query string without page or view, keys in a stable order. */
export function viewQuery(query: string): string {
  const pairs = [...new URLSearchParams(query)].filter(([k]) => !NOT_IN_VIEW.has(k));
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(pairs).toString();
}

/**
 * A view's query: the list's query string (`battery=Low&seen=online&sort=updated_at`), checked
 * by the very schema the list reads its query with; the page and unknown keys are refused.
 */
export const viewQuerySchema = () =>
  z
    .string()
    .trim()
    .max(VIEW_QUERY_MAX, `At most ${VIEW_QUERY_MAX} characters`)
    .transform((q, ctx) => {
      const unknown = Object.keys(queryObject(q)).filter(
        (k) => !NOT_IN_VIEW.has(k) && !(k in DeviceListQuerySchema.shape),
      );
      if (unknown.length > 0)
        ctx.addIssue({ code: 'custom', message: `Not a filter of the list: ${unknown.join(', ')}` });
      const parsed = DeviceListQuerySchema.safeParse(queryObject(q));
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
      }
      return viewQuery(q);
    });

/** The list query a view's query string stands for (page 1). */
export const parseViewQuery = (query: string): DeviceListQuery => DeviceListQuerySchema.parse(queryObject(query));

const viewName = () => z.string().trim().min(1, 'Required').max(VIEW_NAME_MAX, `At most ${VIEW_NAME_MAX} characters`);

export const SavedViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The list's query string (filters and sort). */
  query: z.string(),
  /** Seen by everyone of the entity (the landlord's: every superadmin), not only its owner. */
  shared: z.boolean(),
  owner: z.string(),
  /** The caller may change and delete it (its owner). */
  mine: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SavedView = z.infer<typeof SavedViewSchema>;

export const SavedViewCreateSchema = z.object({
  name: viewName(),
  query: viewQuerySchema(),
  shared: z.boolean().default(false),
});
export type SavedViewCreate = z.input<typeof SavedViewCreateSchema>;

export const SavedViewUpdateSchema = z
  .object({ name: viewName(), query: viewQuerySchema(), shared: z.boolean() })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change');

/** POST …/device-selection: the dry run of "select all matching" for this filter. */
export const SelectionRequestSchema = z.object({ query: viewQuerySchema() });

/** The actions a selection can take. */
export const SELECTION_ACTIONS = ['command', 'delete', 'firmware', 'group', 'provision'] as const;

export const SelectionSchema = z.object({
  id: z.uuid(),
  /** Devices the filter matched at the dry run: exactly those the action touches. */
  total: z.number().int(),
  query: z.string(),
  action: z.enum(SELECTION_ACTIONS).nullable(),
  state: z.enum(['counted', 'running', 'done']),
  /** Devices handled so far (commands written and published, devices deleted). */
  done: z.number().int(),
  /** A command's devices by their command's state, once sent. */
  counts: z.record(z.string(), z.number().int()).optional(),
  expires_at: z.string(),
});
export type Selection = z.infer<typeof SelectionSchema>;
