import { runLimited } from '@/lib/async/run-limited.ts';
import type { BulkRow } from './bulk-rows.ts';
import { failureText } from '../../../lib/api/failure-text.ts';

/** Devices added at once: fast enough for thousands of rows, gentle on the server. */
export const BULK_PARALLEL = 4;

/** A new device's MQTT credentials, as its create answers them this once. */
export interface IssuedCredentials {
  username: string;
  password: string;
}

/**
 * What became of one row: `created` (with the credentials the server issued, when it answered
 * them); `failed` with the server's reason; `invalid` (never sent, the file's own problem);
 * `stopped` (never sent because the user stopped the upload).
 */
export type BulkResult =
  | { row: BulkRow; status: 'created'; credentials?: IssuedCredentials }
  | { row: BulkRow; status: 'failed' | 'invalid'; message: string }
  | { row: BulkRow; status: 'stopped' };

export interface BulkAddOptions {
  limit?: number;
  signal?: AbortSignal;
  /** Rows sent so far, of the rows that will be sent. */
  onProgress?(done: number, total: number): void;
}

/**
 * Adds the valid rows one call each with limited parallelism (fleet §4: one by one in
 * parallel) and answers every row's result in file order, so the user knows exactly which
 * devices exist.
 */
export async function addRows(
  rows: readonly BulkRow[],
  add: (row: BulkRow) => Promise<{ mqtt?: IssuedCredentials } | void>,
  { limit = BULK_PARALLEL, signal, onProgress }: BulkAddOptions = {},
): Promise<BulkResult[]> {
  const sendable = rows.filter((row) => row.issue === undefined);
  onProgress?.(0, sendable.length);
  const settled = await runLimited(sendable, add, {
    limit,
    signal,
    onSettled: (done) => onProgress?.(done, sendable.length),
  });
  const bySent = new Map(sendable.map((row, i) => [row, settled[i]]));
  return rows.map((row): BulkResult => {
    if (row.issue !== undefined) return { row, status: 'invalid', message: row.issue };
    const outcome = bySent.get(row);
    if (outcome?.status === 'fulfilled') {
      const credentials = outcome.value?.mqtt;
      return credentials ? { row, status: 'created', credentials } : { row, status: 'created' };
    }
    if (outcome?.status === 'rejected') return { row, status: 'failed', message: failureText(outcome.reason) };
    return { row, status: 'stopped' };
  });
}

/** How many rows ended each way. */
export function countResults(results: readonly BulkResult[]): Record<BulkResult['status'], number> {
  const counts = { created: 0, failed: 0, invalid: 0, stopped: 0 };
  for (const r of results) counts[r.status]++;
  return counts;
}
