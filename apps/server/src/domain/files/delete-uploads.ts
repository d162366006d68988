import { and, eq, sql } from 'drizzle-orm';
import type { FileLevel } from '@fleet/shared/schemas/files';
import type { Db } from '../../db/client.ts';
import { files, firmware } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { presentFile, presentFirmware } from './present.ts';
import { resolveTarget } from './file-levels.ts';

type Kind = 'file' | 'firmware';
const tables = { file: files, firmware } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Removes the blobs of deleted records. The record goes first: a blob that outlives it (the store
 * failed just then) is an orphan the sweep removes later, never a record without bytes.
 */
async function dropBlobs(blobs: BlobStore, keys: string[], onError: (err: unknown) => void) {
  await Promise.all(keys.map((k) => blobs.delete(k).catch(onError)));
}

/** What an audit entry keeps of a deleted record. */
const present = (kind: Kind, row: unknown): Record<string, unknown> =>
  kind === 'file'
    ? presentFile(row as Parameters<typeof presentFile>[0])
    : presentFirmware(row as Parameters<typeof presentFirmware>[0]);

/** Deletes one file or firmware record of the entity and its blob; another entity's id is 404. */
export async function deleteUpload(
  db: Db,
  ctx: AuditContext,
  blobs: BlobStore,
  kind: Kind,
  entity: string,
  id: string,
  onError: (err: unknown) => void,
): Promise<void> {
  const t = tables[kind];
  if (!UUID.test(id)) throw notFound(kind === 'file' ? 'File' : 'Firmware');
  const entry = { action: `${kind}.delete`, entity, target: { type: kind, name: id } } as const;
  const complete = ([row]: (typeof t.$inferSelect)[]) => ({
    target: { type: kind, name: row!.filename },
    before: present(kind, row),
  });
  const gone = await audited(db, ctx, { ...entry, complete }, async (tx) => {
    const rows = await tx
      .delete(t)
      .where(and(eq(t.id, id), eq(t.entity, entity)))
      .returning();
    if (rows.length === 0) throw notFound(kind === 'file' ? 'File' : 'Firmware');
    return rows;
  });
  await dropBlobs(
    blobs,
    gone.map((g) => g.blob_key),
    onError,
  );
}

/** Deletes every record of one target (firmware: of one device type) and their blobs; answers how many. */
export async function deleteAllUploads(
  db: Db,
  ctx: AuditContext,
  blobs: BlobStore,
  kind: Kind,
  entity: string,
  q: { level: FileLevel; device_type?: 'CC1' | 'CC2' } & Partial<Record<string, string>>,
  onError: (err: unknown) => void,
): Promise<number> {
  const { level, target } = await resolveTarget(db, entity, q.level, q);
  const t = tables[kind];
  // One entry for the whole operation, with the count and the names (none when nothing went).
  const entry = { action: `${kind}.delete`, entity, target: { type: kind, name: null } } as const;
  const complete = (rows: { key: string; filename: string }[]) =>
    rows.length
      ? {
          details: {
            count: rows.length,
            names: rows.map((r) => r.filename),
            level,
            target,
            ...(q.device_type ? { device_type: q.device_type } : {}),
          },
        }
      : null;
  const gone = await audited(db, ctx, { ...entry, complete }, (tx) =>
    tx
      .delete(t)
      .where(
        and(
          eq(t.entity, entity),
          eq(t.level, level),
          eq(t.target, target),
          kind === 'firmware' && q.device_type ? eq(firmware.device_type, q.device_type) : sql`true`,
        ),
      )
      .returning({ key: t.blob_key, filename: t.filename }),
  );
  await dropBlobs(
    blobs,
    gone.map((g) => g.key),
    onError,
  );
  return gone.length;
}
