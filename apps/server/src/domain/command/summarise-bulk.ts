import { COMMAND_LABELS } from '@fleet/shared/command-labels';
import type { DevicePayload } from '@fleet/shared/protocol';
import type { BulkCommandAnswer, CommandCounts, CommandState, RefreshReport } from '@fleet/shared/schemas/command';

/** Where one device's command ended up, as a bulk answer lists it (with a refresh's reply). */
export type Outcome = { device: string; state: CommandState; error: string | null; report?: RefreshReport };
export type Missing = { device: string; state: 'not_found'; error: null };

/**
 * A bulk command's answer: counts, `success` / `partial` / `failed`, a sentence, and the results
 * (with `keep`, only the first `keep` that did not succeed).
 */
export function summariseBulk(
  payload: DevicePayload,
  results: Outcome[],
  missing: Missing[],
  keep = Infinity,
): BulkCommandAnswer {
  const counts: CommandCounts = { succeeded: 0, failed: 0, timed_out: 0, queued: 0, sent: 0 };
  for (const r of results) if (r.state !== 'expired') counts[r.state]++;
  const bad = counts.failed + counts.timed_out + missing.length;
  const status = bad === 0 ? 'success' : counts.succeeded + counts.queued === 0 ? 'failed' : 'partial';
  const parts = [
    `${counts.succeeded} succeeded`,
    counts.failed && `${counts.failed} failed`,
    counts.timed_out && `${counts.timed_out} did not answer`,
    counts.queued && `${counts.queued} held until they wake`,
    missing.length && `${missing.length} not found`,
  ].filter(Boolean);
  const total = results.length + missing.length;
  const verb = COMMAND_LABELS[payload.type];
  const userMessage =
    total === 0
      ? `${verb}: no devices to send to`
      : `${verb} to ${total} device${total === 1 ? '' : 's'}: ${parts.join(', ')}`;
  const shown = keep === Infinity ? results : results.filter((r) => r.state !== 'succeeded').slice(0, keep);
  return { status, userMessage, data: { counts, results: [...shown, ...missing] } };
}
