import { sql } from 'drizzle-orm';
import type { CommandRow } from './present-command.ts';

/** `= any(…)` of a list of texts, passed as one JSON parameter (Drizzle would spread a JS array). */
export const anyOf = (values: readonly string[]) =>
  sql`any(array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;

/** Columns a command row is written with; `online` devices get it at once, sleeping ones hold it. */
export const insertColumns = sql`(id, device, entity, type, payload, target, state, sent_by, sent_at, expires_at)`;

/** The promise, or a rejection once `deadline` (epoch ms) passes. */
export function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('The broker did not take the command in time')), deadline - Date.now());
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** How long a held command waits, in words: "60 minutes", "2 hours". */
export function waitFor(row: Pick<CommandRow, 'created_at' | 'expires_at'>): string {
  const minutes = Math.round((row.expires_at.getTime() - row.created_at.getTime()) / 60_000);
  if (minutes < 1) return 'a minute';
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.round(minutes / 60)} hours`;
}
