import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import type { BlobStore } from '../../storage/blob-store.ts';

/** A blob this young may belong to an upload still being recorded (on any instance). */
const GRACE_MS = 60 * 60_000;

/**
 * Removes blobs no file or firmware record names: those a crash left between writing the blob
 * and its record, or whose delete failed after the record went. Answers how many it removed.
 */
export async function sweepOrphanBlobs(db: Db, blobs: BlobStore, now = Date.now()): Promise<number> {
  let removed = 0;
  const batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const list = JSON.stringify(batch.splice(0));
    const known = rowsOf<{ blob_key: string }>(
      await db.execute(sql`
      select blob_key from files where blob_key = any(array(select jsonb_array_elements_text(${list}::jsonb)))
      union select blob_key from firmware where blob_key = any(array(select jsonb_array_elements_text(${list}::jsonb)))`),
    );
    const keep = new Set(known.map((r) => r.blob_key));
    for (const key of JSON.parse(list) as string[]) {
      if (keep.has(key)) continue;
      await blobs.delete(key);
      removed++;
    }
  };
  for await (const { key, modified } of blobs.list()) {
    if (now - modified.getTime() < GRACE_MS) continue;
    batch.push(key);
    if (batch.length >= 500) await flush();
  }
  await flush();
  return removed;
}
