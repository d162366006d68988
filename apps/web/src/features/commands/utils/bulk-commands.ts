import { MAX_BULK_COMMAND_DEVICES, type BulkCommandAnswer, type CommandCounts } from '@fleet/shared/schemas/command';
import type { Device } from '@fleet/shared/schemas/device';
import { isUnresponsive } from '../../../lib/device/device-health.ts';

/** One `mqtt/general/devices` call: an entity's devices, at most 1000 of them. */
export interface BulkCall {
  entity: string;
  devices: string[];
}

/** Where a Multi-Device Action goes, and which selected devices it leaves out. */
export interface BulkPlan {
  calls: BulkCall[];
  /** Responsive devices that will receive the command. */
  sendable: number;
  /** No sign of life for 20 minutes: commands to them are disabled (core §4). */
  unresponsive: string[];
  /** Selected but not on any page loaded since, with no entity to send to (landlord only). */
  unlisted: string[];
}

/**
 * Splits a selection into calls per entity (the landlord's list mixes entities, and command paths
 * are tenant-scoped) of at most MAX_BULK_COMMAND_DEVICES, skipping unresponsive devices. A name
 * not in `known` goes to `fallbackEntity` (the active entity) or, without one, is left out.
 */
export function planBulkCommand(
  selected: Iterable<string>,
  known: ReadonlyMap<string, Pick<Device, 'entity' | 'updated_at'>>,
  now: number,
  fallbackEntity: string | null,
): BulkPlan {
  const byEntity = new Map<string, string[]>();
  const plan: BulkPlan = { calls: [], sendable: 0, unresponsive: [], unlisted: [] };
  for (const name of selected) {
    const device = known.get(name);
    const entity = device?.entity ?? fallbackEntity;
    if (entity === null) plan.unlisted.push(name);
    else if (device && isUnresponsive(device.updated_at, now)) plan.unresponsive.push(name);
    else byEntity.set(entity, [...(byEntity.get(entity) ?? []), name]);
  }
  for (const [entity, names] of byEntity) {
    plan.sendable += names.length;
    for (let i = 0; i < names.length; i += MAX_BULK_COMMAND_DEVICES)
      plan.calls.push({ entity, devices: names.slice(i, i + MAX_BULK_COMMAND_DEVICES) });
  }
  return plan;
}

const NO_COUNTS: CommandCounts = { succeeded: 0, failed: 0, timed_out: 0, queued: 0, sent: 0 };

/** A call that got no answer, as an answer: every one of its devices failed with `error`. */
export function failedCall(call: BulkCall, error: string): BulkCommandAnswer {
  return {
    status: 'failed',
    userMessage: error,
    data: {
      counts: { ...NO_COUNTS, failed: call.devices.length },
      results: call.devices.map((device) => ({ device, state: 'failed' as const, error })),
    },
  };
}

/** The counts in words, e.g. '3 succeeded, 1 held until it wakes, 1 timed out'. */
export function countsText(counts: CommandCounts): string {
  const parts: string[] = [];
  if (counts.succeeded) parts.push(`${counts.succeeded} succeeded`);
  if (counts.sent) parts.push(`${counts.sent} sent, no reply yet`);
  if (counts.queued) parts.push(`${counts.queued} held until ${counts.queued === 1 ? 'it wakes' : 'they wake'}`);
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (counts.timed_out) parts.push(`${counts.timed_out} timed out`);
  return parts.length > 0 ? `${parts.join(', ')}.` : 'No device answered.';
}

/**
 * One answer for several calls: counts added, results joined; `success` only if every call
 * succeeded, `failed` only if every call failed. A single answer is returned unchanged, so its
 * server text is what the user reads.
 */
export function mergeBulkAnswers(answers: readonly BulkCommandAnswer[]): BulkCommandAnswer {
  if (answers.length === 1 && answers[0]) return answers[0];
  const counts = { ...NO_COUNTS };
  for (const answer of answers)
    for (const key of Object.keys(counts) as (keyof CommandCounts)[]) counts[key] += answer.data.counts[key];
  const every = (status: BulkCommandAnswer['status']) => answers.every((a) => a.status === status);
  return {
    status: every('success') ? 'success' : every('failed') ? 'failed' : 'partial',
    userMessage: countsText(counts),
    data: { counts, results: answers.flatMap((a) => a.data.results) },
  };
}
