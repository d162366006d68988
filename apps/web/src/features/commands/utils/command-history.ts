import type { Command } from '@fleet/shared/schemas/command';
import { describeCommand } from './command-actions.ts';
import type { Tone } from '../../../lib/device/device-health.ts';

/** A command's outcome as the history shows it: a coloured label and, when there is one, why. */
export interface CommandOutcome {
  label: string;
  tone: Tone;
  /** The device's error text or why the server gave up; null when there is nothing to add. */
  detail: string | null;
}

/**
 * The Outcome cell (command states of the contract): a queued command that was never published
 * is held for a sleeping device; sent waits for the reply; the rest are final.
 */
export function commandOutcome(
  command: Pick<Command, 'state' | 'error' | 'sent_at'> & Partial<Pick<Command, 'progress' | 'progress_phase'>>,
): CommandOutcome {
  const detail = command.error?.trim() || null;
  switch (command.state) {
    case 'queued':
      return {
        label: command.sent_at === null ? 'Held — waiting for the device' : 'Queued',
        tone: 'yellow',
        detail: null,
      };
    case 'sent':
      // Long work (a firmware update) reports its phase and percentage while it runs.
      if (command.progress_phase)
        return {
          label: `${capitalise(command.progress_phase)} — ${command.progress ?? 0}%`,
          tone: 'blue',
          detail: null,
        };
      return { label: 'Sent — awaiting reply', tone: 'blue', detail: null };
    case 'succeeded':
      return { label: 'Succeeded', tone: 'green', detail: null };
    case 'failed':
      return { label: 'Failed', tone: 'red', detail };
    case 'timed_out':
      return { label: 'Timed out', tone: 'red', detail };
    case 'expired':
      return { label: 'Expired', tone: 'gray', detail: detail ?? 'The device did not wake in time' };
  }
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Latency in milliseconds, e.g. '840 ms' or '12,300 ms'; a dash when there was no reply. */
export function formatLatency(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  return `${Math.round(ms).toLocaleString('en')} ms`;
}

/** How the command reached the device, when it was not sent to it alone. */
export function targetNote(target: Command['target']): string | null {
  if (target === 'devices') return 'to selected devices';
  if (target === 'entity') return 'to every device';
  return null;
}

/** The text of the Command cell, e.g. 'Vibrate V101'. */
export function commandText(command: Pick<Command, 'type' | 'payload'>): string {
  return describeCommand(command.type, command.payload);
}

/**
 * The history pages joined, newest first. Paging by offset while new commands arrive can repeat
 * a command on two pages, so each id appears once.
 */
export function joinPages(pages: readonly { data: readonly Command[] }[]): Command[] {
  const seen = new Set<string>();
  const rows: Command[] = [];
  for (const page of pages)
    for (const command of page.data) {
      if (seen.has(command.id)) continue;
      seen.add(command.id);
      rows.push(command);
    }
  return rows;
}
