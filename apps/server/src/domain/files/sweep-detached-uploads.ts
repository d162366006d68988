import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/raw-sql.ts';
import type { Db } from '../../db/client.ts';
import type { BlobStore } from '../../storage/blob-store.ts';

/**
 * Removes the files and firmware of sites and groups that no longer exist, and their blobs.
 * Uploads name a site or group by its id, not by a foreign key (one column serves three
 * levels), so a deleted site's uploads are found here: at start and every few minutes. Until
 * then they are unreachable (their target answers 404). Answers how many records went.
 */
export async function sweepDetachedUploads(db: Db, blobs: BlobStore): Promise<number> {
  let removed = 0;
  for (const table of ['files', 'firmware'] as const) {
    const gone = rowsOf<{ blob_key: string }>(
      await db.execute(sql`
        delete from ${sql.identifier(table)} u
        where (u.level = 'site' and not exists (select 1 from sites s where s.id::text = u.target))
           or (u.level = 'group' and not exists (select 1 from groups g where g.id::text = u.target))
        returning u.blob_key`),
    );
    for (const { blob_key } of gone) await blobs.delete(blob_key).catch(() => {});
    removed += gone.length;
  }
  return removed;
}
