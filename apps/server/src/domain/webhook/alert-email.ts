import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';

/** A burst is sent at the latest this long after its first alert, however long it goes on. */
export const ALERT_EMAIL_MAX_WAIT_S = 600;
/** Devices one e-mail names; the rest are counted. */
const LISTED = 200;
/** A burst the SMTP server refused is tried again after 1, 2, 4… minutes, 10 times at most. */
const MAX_ATTEMPTS = 10;

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

interface Queued {
  id: number;
  rule_id: string;
  entity: string;
  attempts: number;
  rule_name: string | null;
  email_to: string[] | null;
  device: string | null;
  severity: string;
  raised_at: string | Date | null;
  detail: Record<string, unknown>;
}

/** One e-mail for a rule's burst of `total` alerts: a line per device of `rows` (the first LISTED), then the count of the rest. */
export function burstMail(entity: string, rows: Queued[], total = rows.length): Mail {
  const first = rows[0]!;
  const n = total;
  const lines = rows.slice(0, LISTED).map((r) => {
    const when = r.raised_at ? new Date(r.raised_at).toISOString() : '';
    const battery = typeof r.detail.battery === 'number' ? `, battery ${r.detail.battery}%` : '';
    const rollout = typeof r.detail.rollout_name === 'string' ? `rollout ${r.detail.rollout_name}` : undefined;
    const reason = typeof r.detail.reason === 'string' ? `: ${r.detail.reason}` : '';
    return `- ${r.device ?? rollout ?? '?'} (${r.severity}) raised ${when}${battery}${reason}`;
  });
  if (n > LISTED) lines.push(`… and ${n - LISTED} more`);
  return {
    to: first.email_to ?? [],
    subject: `[Fleet Console] ${first.rule_name}: ${n} alert${n === 1 ? '' : 's'} in ${entity}`,
    text: [
      `The rule "${first.rule_name}" of ${entity} raised ${n} alert${n === 1 ? '' : 's'}:`,
      '',
      ...lines,
      '',
      'Open the Alerts screen of Fleet Console to acknowledge them.',
    ].join('\n'),
  };
}

/**
 * Queue rows one statement claims or deletes: a burst of 10,000 alerts is claimed in short
 * statements (PGlite has one connection, and the API waits for each).
 */
const STEP = 250;

const idList = (ids: number[]) => sql`(select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::bigint)`;

/**
 * One pass of the alert e-mail queue at `now`: each rule whose queued alerts have been quiet for
 * `quietS` (or whose first waited ALERT_EMAIL_MAX_WAIT_S) is claimed — its rows pushed past now, so
 * another instance skips them — and sent as ONE e-mail; sent rows are deleted, a refused burst is
 * retried with back-off. `send` undefined (no SMTP_URL): the queue is dropped. Answers the e-mails sent.
 */
export async function sendAlertEmails(
  db: Db,
  now: Date,
  quietS: number,
  send: ((mail: Mail) => Promise<void>) | undefined,
  onError: (err: unknown) => void,
): Promise<number> {
  const at = now.toISOString();
  if (!send) {
    await inSteps(
      db,
      sql`delete from alert_emails where id in (select id from alert_emails
      where created_at <= ${at}::timestamptz limit ${STEP}) returning id`,
    );
    return 0;
  }
  // The rules with queued rows (a skip scan of the rule index: one probe per rule), and of each its
  // newest and oldest due row (one probe each): not every queued row read on every pass of a burst.
  const queued = (order: SQL) => sql`(select e.created_at from alert_emails e
    where e.rule_id = q.rule_id and e.next_attempt_at <= ${at}::timestamptz order by ${order} limit 1)`;
  const due = rowsOf<{ rule_id: string }>(
    await db.execute(sql`
      with recursive q as (
        (select rule_id from alert_emails order by rule_id limit 1)
        union all
        select (select e.rule_id from alert_emails e where e.rule_id > q.rule_id order by e.rule_id limit 1)
        from q where q.rule_id is not null)
      select q.rule_id from q
      where ${queued(sql`e.created_at desc`)} <= ${at}::timestamptz - make_interval(secs => ${quietS})
        or ${queued(sql`e.created_at`)} <= ${at}::timestamptz - make_interval(secs => ${ALERT_EMAIL_MAX_WAIT_S})`),
  );
  let sent = 0;
  for (const { rule_id: rule } of due) {
    const ids = await inSteps(
      db,
      sql`update alert_emails e set next_attempt_at = ${at}::timestamptz + make_interval(mins => 10)
        where e.id in (select id from alert_emails where rule_id = ${rule} and next_attempt_at <= ${at}::timestamptz
          order by id limit ${STEP} for update skip locked)
        returning e.id`,
    );
    if (ids.length === 0) continue; // another instance claimed it first
    // The e-mail lists the first LISTED of the burst and counts the rest.
    const rows = rowsOf<Queued>(
      await db.execute(sql`
        select e.id, e.rule_id, e.entity, e.attempts, r.name as rule_name, r.email_to, a.device,
          r.severity, a.raised_at, a.detail
        from alert_emails e join alerts a on a.id = e.alert_id left join alert_rules r on r.id = e.rule_id
        where e.id in ${idList(ids)}
        order by a.raised_at, a.device limit ${LISTED}`),
    );
    if (rows.length === 0) continue; // the alerts were deleted meanwhile (their rows with them)
    const mail = burstMail(rows[0]!.entity, rows, ids.length);
    const done = () => removeRows(db, ids);
    if (mail.to.length === 0) {
      await done();
      continue;
    }
    try {
      await send(mail);
      await done();
      sent++;
    } catch (err) {
      onError(err);
      const attempts = rows[0]!.attempts + 1;
      if (attempts >= MAX_ATTEMPTS) await done();
      else
        for (let i = 0; i < ids.length; i += STEP)
          await db.execute(sql`update alert_emails set attempts = ${attempts},
              next_attempt_at = ${at}::timestamptz + make_interval(mins => ${2 ** (attempts - 1)})
            where id in ${idList(ids.slice(i, i + STEP))}`);
    }
  }
  return sent;
}

/** Runs `step` (a statement answering the ids it touched, STEP at most) until it touches fewer; answers every id. */
async function inSteps(db: Db, step: SQL): Promise<number[]> {
  const ids: number[] = [];
  for (;;) {
    const rows = rowsOf<{ id: string | number }>(await db.execute(step));
    for (const r of rows) ids.push(Number(r.id));
    if (rows.length < STEP) return ids;
  }
}

async function removeRows(db: Db, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += STEP)
    await db.execute(sql`delete from alert_emails where id in ${idList(ids.slice(i, i + STEP))}`);
}
