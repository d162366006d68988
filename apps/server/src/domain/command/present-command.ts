import type { Command } from '@fleet/shared/schemas/command';
import type { commands } from '../../db/schema.ts';

export type CommandRow = typeof commands.$inferSelect;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A command as its history shows it. Raw SQL answers dates as strings, Drizzle as Dates: both read. */
export function presentCommand(row: CommandRow): Command {
  return {
    id: row.id,
    device: row.device,
    entity: row.entity,
    type: row.type,
    payload: row.payload,
    target: row.target,
    state: row.state,
    sent_by: row.sent_by,
    created_at: iso(row.created_at)!,
    sent_at: iso(row.sent_at),
    replied_at: iso(row.replied_at),
    expires_at: iso(row.expires_at)!,
    error: row.error,
    latency_ms: row.latency_ms === null ? null : Number(row.latency_ms),
    progress_phase: row.progress_phase ?? null,
    progress: row.progress === null || row.progress === undefined ? null : Number(row.progress),
  };
}
