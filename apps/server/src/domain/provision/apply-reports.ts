import type { Db, Executor } from '../../db/client.ts';
import type { ProvisionBusEvent } from '../../lib/bus.ts';
import { writeBisecting } from '../../lib/batching/bisecting-writer.ts';
import { inDeviceOrder, type Queued } from './report-order.ts';
import { lockOpenSessions, readFiles, saveChanges, stateOf } from './report-queries.ts';
import { record, unchanged, type SessionChange } from './session-change.ts';
import { applyReport } from './session-machine.ts';

/** What a flush's transaction did: events to relay, reports that came early, the sessions it changed. */
export interface Applied {
  events: ProvisionBusEvent[];
  early: Queued[];
  touched: SessionChange[];
}

/** How the mode at hand applies a batch under row locks. */
export interface LockedApply {
  /** Every file of a session is read (sole mode keeps the sessions it reads), not only those the reports name. */
  readAll: boolean;
  /** Whether a report ahead of one missing still waits for it (report-order.ts). */
  waits(q: Queued): boolean;
  /** The events of a flush once numbered, before its transaction writes them. */
  numbered?(events: ProvisionBusEvent[]): void;
  /** After a batch's transaction commits. */
  committed(batch: Queued[], result: Applied): Promise<void>;
  /** A session's reports the database refused even alone: dropped. */
  onRefused(session: string, err: unknown): void;
}

/**
 * Applies a batch of reports, of every session, in ONE transaction with a constant number of
 * statements; when the database refuses it, it is split by session and each half tried on its own
 * (a deadlock is retried first), so one session's bad report never costs another its reports.
 */
export function writeReports(db: Db, batch: Queued[], mode: LockedApply): Promise<void> {
  return writeBisecting(batch, {
    write: (b) => db.transaction((tx) => applyBatch(tx, b, mode)),
    groupOf: (q) => q.sid,
    committed: (b, result) => mode.committed(b, result),
    refused: (b, err) => {
      mode.onRefused(b[0]!.sid, err);
      for (const q of b) q.fail(err);
    },
  });
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of items) {
    const list = out.get(key(x));
    if (list) list.push(x);
    else out.set(key(x), [x]);
  }
  return out;
}

/** Which files of the open sessions the reports of `batch` need. */
function filesWanted(batch: Queued[], open: Set<string>, readAll: boolean) {
  const sessionsWhere = (keep: (q: Queued) => boolean) => [
    ...new Set(batch.filter((q) => open.has(q.sid) && keep(q)).map((q) => q.sid)),
  ];
  // Only the files the reports name (a final report names each file's result), and the
  // unfinished files of a session that ends here (they fail); the counters on the session row
  // are kept up to date change by change.
  const named = batch.flatMap((q) => {
    if (!open.has(q.sid)) return [];
    if (q.e.phase === 'file') return [{ session_id: q.sid, device_path: q.e.device_path }];
    if (q.e.phase === 'completed')
      return (q.e.results ?? []).map((r) => ({ session_id: q.sid, device_path: r.device_path }));
    return [];
  });
  return {
    whole: readAll ? sessionsWhere(() => true) : [],
    unfinished: readAll ? [] : sessionsWhere((q) => q.e.phase === 'completed' || q.e.phase === 'failed'),
    named,
  };
}

/**
 * One transaction: every touched open session locked, its files read, each session's reports
 * applied in the device's order by the state machine, then one statement writes it all. The row
 * locks number events without gaps whichever instance hears the device.
 */
async function applyBatch(tx: Executor, batch: Queued[], mode: LockedApply): Promise<Applied> {
  const rows = await lockOpenSessions(tx, [...new Set(batch.map((q) => q.sid))]);
  if (rows.length === 0) return { events: [], early: [], touched: [] };
  const open = new Set(rows.map((r) => String(r.id)));
  const files = await readFiles(tx, filesWanted(batch, open, mode.readAll));
  const filesBy = groupBy(files, (f) => f.session_id);
  const work = new Map<string, SessionChange>();
  for (const row of rows)
    work.set(String(row.id), unchanged(stateOf(row, filesBy.get(String(row.id)) ?? []), row.prior_state));

  // Reports of a session that is not open, or not from its device, are ignored.
  const bySession = groupBy(
    batch.filter((q) => work.get(q.sid)?.state.device === q.device),
    (q) => q.sid,
  );
  const early: Queued[] = [];
  const events: ProvisionBusEvent[] = [];
  for (const [id, list] of bySession) {
    const w = work.get(id)!;
    for (const q of inDeviceOrder(list)) {
      const step = applyReport(w.state, q.e, mode.waits(q));
      if (step.early) early.push(q);
      else record(w, step);
    }
    events.push(...w.events);
  }

  const touched = [...work.values()].filter((w) => bySession.has(w.state.id));
  if (touched.length === 0) return { events: [], early, touched: [] };
  // Numbered: out now, while they are written. Should the transaction be refused, its retry
  // numbers the same reports alike (streams drop what they already have).
  if (events.length > 0) mode.numbered?.(events);
  await saveChanges(tx, touched);
  return { events, early, touched };
}
