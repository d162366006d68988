import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files, firmware } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The blob behind a signed link's record; a record deleted since the link was made is 404. */
export async function findDownload(db: Db, kind: 'file' | 'firmware', id: string) {
  const t = kind === 'file' ? files : firmware;
  if (!UUID.test(id)) throw notFound(kind === 'file' ? 'File' : 'Firmware');
  const [row] = await db.select({ key: t.blob_key, size: t.size_bytes, sha256: t.sha256 }).from(t).where(eq(t.id, id));
  if (!row) throw notFound(kind === 'file' ? 'File' : 'Firmware');
  return { key: row.key, size: Number(row.size), sha256: row.sha256 };
}
