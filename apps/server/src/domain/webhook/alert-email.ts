import { sql } from 'drizzle-orm';
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

/** One e-mail for a rule's burst: a line per device (the first LISTED), then the count of the rest. */
export function burstMail(entity: string, rows: Queued[]): Mail {
  const first = rows[0]!;
  const n = rows.length;
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
    await db.execute(sql`delete from alert_emails where created_at <= ${at}::timestamptz`);
    return 0;
  }
  const claimed = rowsOf<Queued>(
    await db.execute(sql`
      with due as (
        select rule_id from alert_emails where next_attempt_at <= ${at}::timestamptz
        group by rule_id
        having max(created_at) <= ${at}::timestamptz - make_interval(secs => ${quietS})
          or min(created_at) <= ${at}::timestamptz - make_interval(secs => ${ALERT_EMAIL_MAX_WAIT_S})),
      claimed as (
        update alert_emails e set next_attempt_at = ${at}::timestamptz + make_interval(mins => 10)
        where e.rule_id in (select rule_id from due) and e.next_attempt_at <= ${at}::timestamptz
        returning e.id, e.rule_id, e.entity, e.attempts, e.alert_id)
      select c.id, c.rule_id, c.entity, c.attempts, r.name as rule_name, r.email_to, a.device,
        r.severity, a.raised_at, a.detail
      from claimed c join alerts a on a.id = c.alert_id left join alert_rules r on r.id = c.rule_id
      order by a.raised_at, a.device`),
  );
  const byRule = new Map<string, Queued[]>();
  for (const row of claimed) byRule.set(row.rule_id, [...(byRule.get(row.rule_id) ?? []), row]);
  let sent = 0;
  for (const rows of byRule.values()) {
    const ids = JSON.stringify(rows.map((r) => r.id));
    const done = sql`delete from alert_emails where id in (select (jsonb_array_elements_text(${ids}::jsonb))::bigint)`;
    const mail = burstMail(rows[0]!.entity, rows);
    if (mail.to.length === 0) {
      await db.execute(done);
      continue;
    }
    try {
      await send(mail);
      await db.execute(done);
      sent++;
    } catch (err) {
      onError(err);
      const attempts = rows[0]!.attempts + 1;
      await db.execute(
        attempts >= MAX_ATTEMPTS
          ? done
          : sql`update alert_emails set attempts = ${attempts},
              next_attempt_at = ${at}::timestamptz + make_interval(mins => ${2 ** (attempts - 1)})
            where id in (select (jsonb_array_elements_text(${ids}::jsonb))::bigint)`,
      );
    }
  }
  return sent;
}
