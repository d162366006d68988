import { isDeadlock } from '../db-errors.ts';

/** Tries a write makes of the same items while the database breaks deadlocks by failing it. */
const ATTEMPTS = 3;

export interface BisectingWrite<T, R> {
  /** Writes the items in one statement or transaction. */
  write(items: T[]): Promise<R>;
  /** Items of one group are never split (one provisioning session's reports); each item alone when unset. */
  groupOf?(item: T): unknown;
  /** Whether an error refuses the items themselves, so that a part of them may pass; every error when unset. */
  refuses?(err: unknown): boolean;
  /** After each write that succeeded, with its items. */
  committed?(items: T[], result: R): Promise<void> | void;
  /** The items of one group (or one item) refused even alone. */
  refused(items: T[], err: unknown): Promise<void> | void;
  /** An error that `refuses` does not count: these items are not written, the others still are. Rethrown when unset. */
  failed?(items: T[], err: unknown): void;
}

/** The items in two halves by group, or undefined when they are one group. */
function halves<T>(items: T[], groupOf?: (item: T) => unknown): [T[], T[]] | undefined {
  if (!groupOf) {
    const middle = items.length >> 1;
    return items.length > 1 ? [items.slice(0, middle), items.slice(middle)] : undefined;
  }
  const groups = [...new Set(items.map(groupOf))];
  if (groups.length < 2) return undefined;
  const first = new Set(groups.slice(0, groups.length >> 1));
  return [items.filter((x) => first.has(groupOf(x))), items.filter((x) => !first.has(groupOf(x)))];
}

/**
 * Writes items in one go; when the database refuses them, they are split in halves and each half
 * written on its own, down to the single item (or group) that is refused even alone, so one bad
 * item never costs the others their write. A deadlock is retried first (ATTEMPTS in all).
 */
export async function writeBisecting<T, R>(items: T[], o: BisectingWrite<T, R>, attempt = 1): Promise<void> {
  let result: R;
  try {
    result = await o.write(items);
  } catch (err) {
    if (isDeadlock(err) && attempt < ATTEMPTS) return writeBisecting(items, o, attempt + 1);
    if (o.refuses && !o.refuses(err)) {
      if (!o.failed) throw err;
      return o.failed(items, err);
    }
    const parts = halves(items, o.groupOf);
    if (!parts) return o.refused(items, err);
    await writeBisecting(parts[0], o);
    return writeBisecting(parts[1], o);
  }
  await o.committed?.(items, result);
}
