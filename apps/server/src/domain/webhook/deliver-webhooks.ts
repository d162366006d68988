import { sql } from 'drizzle-orm';
import {
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TEST_EVENT,
} from '@fleet/shared/schemas/webhook';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { SYSTEM_CONTEXT } from '../audit/audit-context.ts';
import { recordAudit } from '../audit/audited.ts';
import { signatureHeader } from './signature.ts';

/**
 * Deliveries one pass claims; each is leased for LEASE_S so a crashed worker's come back. Small
 * enough that claiming and recording a batch are short statements: on PGlite's one connection the
 * API waits for each.
 */
export const DELIVERY_BATCH = 50;
const LEASE_S = 60;
/** POSTs in flight at once, and how long one may take. */
const CONCURRENCY = 16;
const TIMEOUT_MS = 10_000;
/** Retries wait 30 s, doubling each time, at most 2 h; an event is given up a day after it happened. */
const FIRST_RETRY_S = 30;
const MAX_RETRY_S = 7_200;
const GIVE_UP_AFTER_MS = 24 * 3600 * 1000;

/** The wait after the `attempt`-th failed attempt (1-based). */
export const retryDelayS = (attempt: number) => Math.min(FIRST_RETRY_S * 2 ** (attempt - 1), MAX_RETRY_S);

interface Claimed {
  id: string;
  webhook_id: string;
  entity: string;
  event_type: string;
  body: string;
  attempts: number;
  created_at: string | Date;
  url: string;
  secret: string;
}

interface Outcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** POSTs one delivery, signed at `now`; any 2xx is delivered, anything else (or no answer) failed. */
async function post(d: Claimed, now: Date): Promise<Outcome> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null) => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    const res = await fetch(d.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'FleetConsole-Webhooks/1',
        [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(d.secret, d.body, now),
      },
      body: d.body,
    });
    await res.body?.cancel().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return done(res.status, ok ? null : `HTTP ${res.status}`);
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return done(null, (cause ?? (err as Error).name ?? 'error').slice(0, 200));
  }
}

/**
 * One pass of the webhook queue at `now`: claims the due deliveries of enabled webhooks (and test
 * events) with `for update skip locked` and a lease, so instances share the queue without sending
 * one twice; POSTs them; records each attempt, schedules the retry or gives up after a day, and
 * turns off a webhook that keeps failing (audited). Answers how many were attempted.
 */
export async function deliverWebhooks(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  const claimed = rowsOf<Claimed>(
    await db.execute(sql`
      update webhook_deliveries d set lease_until = ${at}::timestamptz + make_interval(secs => ${LEASE_S})
      from webhooks w
      where w.id = d.webhook_id and d.id in (
        select d2.id from webhook_deliveries d2 join webhooks w2 on w2.id = d2.webhook_id
        where d2.status = 'pending' and d2.next_attempt_at <= ${at}::timestamptz
          and (d2.lease_until is null or d2.lease_until <= ${at}::timestamptz)
          and (w2.enabled or d2.event_type = ${WEBHOOK_TEST_EVENT})
        order by d2.next_attempt_at, d2.created_at limit ${DELIVERY_BATCH}
        for update of d2 skip locked)
      returning d.id, d.webhook_id, d.entity, d.event_type, d.body, d.attempts, d.created_at, w.url, w.secret`),
  );
  // POSTed CONCURRENCY at a time in the order they happened; the outcomes written in one transaction.
  claimed.sort((x, y) => new Date(x.created_at).getTime() - new Date(y.created_at).getTime());
  const outcomes = new Array<Outcome>(claimed.length);
  let next = 0;
  const work = async () => {
    for (let i = next++; i < claimed.length; i = next++) outcomes[i] = await post(claimed[i]!, now);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, work));
  if (claimed.length > 0) await record(db, claimed, outcomes, now);
  return claimed.length;
}

/**
 * Writes a pass's outcomes: the log rows and each delivery's next step in one statement, then each
 * webhook's failure run (a transaction only when some attempt failed).
 */
async function record(db: Db, claimed: Claimed[], outcomes: Outcome[], now: Date): Promise<void> {
  const at = now.toISOString();
  const rows = claimed.map((d, i) => {
    const out = outcomes[i]!;
    const attempt = d.attempts + 1;
    const ok = out.error === null;
    const retryAt = new Date(now.getTime() + retryDelayS(attempt) * 1000);
    const gaveUp =
      !ok &&
      (d.event_type === WEBHOOK_TEST_EVENT || retryAt.getTime() > new Date(d.created_at).getTime() + GIVE_UP_AFTER_MS);
    return {
      id: d.id,
      webhook_id: d.webhook_id,
      attempt,
      status: ok ? 'delivered' : gaveUp ? 'failed' : 'pending',
      status_code: out.statusCode,
      duration_ms: out.durationMs,
      error: out.error,
      retry_at: retryAt.toISOString(),
      delivered_at: ok ? at : null,
    };
  });
  const json = JSON.stringify(rows);
  const recordset = sql`jsonb_to_recordset(${json}::jsonb) as r(id uuid, webhook_id uuid, attempt int, status text,
    status_code int, duration_ms int, error text, retry_at timestamptz, delivered_at timestamptz)`;
  // Per webhook: whether an attempt succeeded, and the failures after its last success.
  const runs = new Map<string, { reset: boolean; failures: number; last: Outcome }>();
  rows.forEach((r, i) => {
    const run = runs.get(r.webhook_id) ?? { reset: false, failures: 0, last: outcomes[i]! };
    if (r.delivered_at) runs.set(r.webhook_id, { reset: true, failures: 0, last: outcomes[i]! });
    else runs.set(r.webhook_id, { ...run, failures: run.failures + 1, last: outcomes[i]! });
  });
  // One statement: the log rows, each delivery's next step, and the webhooks that succeeded back to
  // no failures (PGlite has one connection: a transaction of several round trips holds it longer).
  const succeeded = [...runs].filter(([, run]) => run.reset && run.failures === 0).map(([id]) => id);
  await db.execute(sql`
    with r as (select * from ${recordset}),
    logged as (
      insert into webhook_attempts (delivery_id, webhook_id, attempt, at, status_code, duration_ms, error)
      select r.id, r.webhook_id, r.attempt, ${at}::timestamptz, r.status_code, r.duration_ms, r.error from r),
    moved as (
      update webhook_deliveries d set status = r.status, attempts = r.attempt, lease_until = null,
        next_attempt_at = r.retry_at, last_status_code = r.status_code, last_error = r.error,
        last_duration_ms = r.duration_ms, delivered_at = r.delivered_at
      from r where d.id = r.id)
    update webhooks set consecutive_failures = 0, failing_since = null
    where id::text in (select jsonb_array_elements_text(${JSON.stringify(succeeded)}::jsonb)) and consecutive_failures > 0`);
  const failing = [...runs].filter(([, run]) => !(run.reset && run.failures === 0));
  if (failing.length === 0) return;
  await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    for (const [id, run] of failing) await failureRun(tx, id, run, now);
  });
}

/** Moves a webhook's run of failures, and turns it off (audited) when the run has gone on too long. */
async function failureRun(tx: Db, id: string, run: { reset: boolean; failures: number; last: Outcome }, now: Date) {
  const at = now.toISOString();
  const since = new Date(now.getTime() - WEBHOOK_DISABLE_AFTER_MS).toISOString();
  const count = run.reset ? sql`${run.failures}` : sql`w.consecutive_failures + ${run.failures}`;
  const began = run.reset ? sql`${at}::timestamptz` : sql`coalesce(w.failing_since, ${at}::timestamptz)`;
  const tripped = sql`(${count} >= ${WEBHOOK_DISABLE_AFTER_FAILURES} or ${began} <= ${since}::timestamptz)`;
  // The row lock orders two passes at once; the reason, set below, marks it as told already.
  const [off] = rowsOf<{ id: string; entity: string; consecutive_failures: number; just_off: boolean }>(
    await tx.execute(sql`
      update webhooks w set consecutive_failures = ${count}, failing_since = ${began},
        enabled = w.enabled and not ${tripped},
        disabled_at = case when w.enabled and ${tripped} then ${at}::timestamptz else w.disabled_at end
      where w.id = ${id}
      returning w.id, w.entity, w.consecutive_failures,
        (not w.enabled and w.disabled_at = ${at}::timestamptz and w.disabled_reason is null) as just_off`),
  ).filter((r) => r.just_off);
  if (!off) return;
  const reason =
    off.consecutive_failures >= WEBHOOK_DISABLE_AFTER_FAILURES
      ? `${off.consecutive_failures} deliveries in a row failed`
      : 'Every delivery failed for 24 hours';
  await tx.execute(sql`update webhooks set disabled_reason = ${reason} where id = ${off.id}`);
  await recordAudit(tx, SYSTEM_CONTEXT, {
    action: 'webhook.disable',
    entity: off.entity,
    target: { type: 'webhook', name: off.id },
    reason,
    details: { last_error: run.last.error, last_status_code: run.last.statusCode },
  });
}
