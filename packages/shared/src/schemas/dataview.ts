import { z } from 'zod';
import { DATAVIEW_GRID, DATAVIEW_WIDGETS, FILE_LIMITS } from '../constants.ts';
import { MESSAGES, apiName, description } from '../validation.ts';

/** An account name as a dataview names it (owner, authorised accounts). */
const accountName = () =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .max(64, 'At most 64 characters');

/** Dataview Version: required (fleet §5). */
const dataviewVersion = () =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .max(64, 'At most 64 characters');

/** One item of the builder's grid (docs/decisions.md, "Dataview content, format 1"). */
export const DataviewItemSchema = z
  .object({
    i: z.string().trim().min(1).max(64),
    type: z.enum(DATAVIEW_WIDGETS),
    x: z
      .number()
      .int()
      .min(0)
      .max(DATAVIEW_GRID.cols - 1),
    y: z
      .number()
      .int()
      .min(0)
      .max(DATAVIEW_GRID.maxRows - 1),
    w: z.number().int().min(1).max(DATAVIEW_GRID.cols),
    h: z.number().int().min(1).max(DATAVIEW_GRID.maxRows),
    title: z.string().max(100, 'At most 100 characters').default(''),
    props: z.record(z.string(), z.unknown()).default({}),
  })
  .refine((it) => it.x + it.w <= DATAVIEW_GRID.cols, { error: `An item must fit in ${DATAVIEW_GRID.cols} columns` })
  .refine((it) => it.y + it.h <= DATAVIEW_GRID.maxRows, { error: `An item must fit in ${DATAVIEW_GRID.maxRows} rows` });
export type DataviewItem = z.infer<typeof DataviewItemSchema>;

const overlaps = (a: DataviewItem, b: DataviewItem) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * A dataview's content, format 1: what the builder saves and what a device receives on
 * allocation. Keys beyond these are kept as they are (an app may carry its own data).
 */
export const DataviewContentSchema = z.looseObject({
  format: z.literal(1, { error: 'Dataview content must have "format": 1' }),
  name: z.string().max(64),
  displayName: z.string().max(500),
  layout: z
    .object({
      items: z
        .array(DataviewItemSchema)
        .max(DATAVIEW_GRID.cols * DATAVIEW_GRID.maxRows)
        .superRefine((items, ctx) => {
          items.forEach((a, n) => {
            if (items.findIndex((b) => b.i === a.i) !== n)
              ctx.addIssue({ code: 'custom', path: [n, 'i'], message: `Item id "${a.i}" is used twice` });
            else if (items.slice(0, n).some((b) => overlaps(a, b)))
              ctx.addIssue({ code: 'custom', path: [n], message: `Item "${a.i}" overlaps another item` });
          });
        }),
    })
    .default({ items: [] }),
});
export type DataviewContent = z.infer<typeof DataviewContentSchema>;

/** Empty content (absent, null or `{}`) means the default content (fleet §3). */
const isEmptyContent = (v: unknown) =>
  v === undefined ||
  v === null ||
  (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);
const contentInput = () => z.preprocess((v) => (isEmptyContent(v) ? undefined : v), DataviewContentSchema.optional());

/** The default content of fleet §3: the name and a display name taken from the description. */
export function defaultDataviewContent(name: string, desc: string): DataviewContent {
  return { format: 1, name, displayName: desc.trim() || name, layout: { items: [] } };
}

/** A dataview as lists show it (fleet §2, §3); `owner` is null once its owner account is deleted. */
export const DataviewSchema = z.object({
  name: z.string(),
  entity: z.string(),
  description: z.string(),
  version: z.string(),
  owner: z.string().nullable(),
  authorized_accounts: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Dataview = z.infer<typeof DataviewSchema>;

/** One dataview with its content (get by name; the landlord's get by entity and name). */
export const DataviewWithContentSchema = DataviewSchema.extend({ content: DataviewContentSchema });
export type DataviewWithContent = z.infer<typeof DataviewWithContentSchema>;

/** POST dataview `{document}`. */
export const DataviewCreateDocumentSchema = z.object({
  name: apiName(),
  description: description().default(''),
  version: dataviewVersion(),
  owner: accountName(),
  authorized_accounts: z.array(accountName()).max(500).default([]),
  content: contentInput(),
});
export const DataviewCreateRequestSchema = z.object({ document: DataviewCreateDocumentSchema });
export type DataviewCreateDocument = z.input<typeof DataviewCreateDocumentSchema>;

/** PUT dataview/{name} `{operator: {$set}}`. */
export const DataviewUpdateSetSchema = z
  .object({
    name: apiName(),
    description: description(),
    version: dataviewVersion(),
    owner: accountName(),
    authorized_accounts: z.array(accountName()).max(500),
    content: contentInput(),
  })
  .partial()
  .strict();
export const DataviewUpdateRequestSchema = z.object({ operator: z.object({ $set: DataviewUpdateSetSchema }) });
export type DataviewUpdateSet = z.infer<typeof DataviewUpdateSetSchema>;

/** A repeatable query value (`?entity=a&entity=b`) as a list. */
const many = () =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v]),
    z.array(z.string().trim().min(1).max(64)).max(200),
  );

/** GET dataview: one page, filtered by the database (fleet §2, §9); limit 0 is the full load. */
export const DataviewListQuerySchema = z.object({
  limit: z.coerce.number().int().min(0).max(1_000).default(0),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  entity: many(),
  owner: many(),
  version: many(),
});
export type DataviewListQuery = z.infer<typeof DataviewListQuerySchema>;

/** The values the landlord's filter sidebar offers. */
export const DataviewFacetsSchema = z.object({
  entities: z.array(z.string()),
  owners: z.array(z.string()),
  versions: z.array(z.string()),
});
export type DataviewFacets = z.infer<typeof DataviewFacetsSchema>;

/** UTF-8 length of a string, without TextEncoder (this package has no DOM or Node types). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Size of content as stored and sent, in bytes of UTF-8 JSON. */
export const contentBytes = (content: unknown) => utf8Length(JSON.stringify(content));
export const DATAVIEW_CONTENT_LIMIT = FILE_LIMITS.dataview;
