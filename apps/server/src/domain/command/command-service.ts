import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import {
  StateReportSchema,
  commandMessage,
  topics,
  type DevicePayload,
  type DfuEvent,
  type ReplyMessage,
} from '@fleet/shared/protocol';
import {
  DEFAULT_COMMAND_TTL_S,
  type BulkCommandAnswer,
  type CommandCounts,
  type CommandState,
} from '@fleet/shared/schemas/command';
import { COMMAND_LABELS } from '@fleet/shared/command-labels';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { rowsOf } from '../../db/raw-sql.ts';
import type { Db } from '../../db/client.ts';
import type { CommandSettled } from '../../lib/bus.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import { closeRefusedAllocation } from '../allocation/close-refused.ts';
import type { DeviceLink } from '../device-link.ts';
import type { TelemetryBatcher, Woken } from '../telemetry/telemetry-batcher.ts';
import { presentCommand, type CommandRow } from './present-command.ts';
import { DOWNLOAD_PREFIX, ProgressBatcher } from './progress-batcher.ts';
import { heldOnShutdown, unansweredOnShutdown } from './shutdown-answers.ts';
import { SHUT_DOWN, type ReplyWaiters } from './reply-waiters.ts';

interface Options {
  db: Db;
  link: DeviceLink;
  waiters: ReplyWaiters;
  telemetry: TelemetryBatcher;
  timeoutMs: number;
  /** How long a firmware update may take from publication to the device's final reply. */
  dfuTimeoutMs: number;
  onError(err: unknown, what: string): void;
}

type Target = CommandRow['target'];
/** Where one device's command ended up, as a bulk answer lists it. */
type Outcome = { device: string; state: CommandState; error: string | null };
type SendOptions = { payload: DevicePayload; expires_in_s?: number | undefined };

/** `= any(…)` of a list of texts, passed as one JSON parameter (Drizzle would spread a JS array). */
const anyOf = (values: string[]) => sql`any(array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;

/** The promise, or a rejection once `deadline` (epoch ms) passes. */
function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('The broker did not take the command in time')), deadline - Date.now());
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** How long a held command waits, in words: "60 minutes", "2 hours". */
function waitFor(row: CommandRow): string {
  const minutes = Math.round((row.expires_at.getTime() - row.created_at.getTime()) / 60_000);
  if (minutes < 1) return 'a minute';
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.round(minutes / 60)} hours`;
}

/** Raw SQL answers rows as `{rows}` on both drivers. */

/** Columns a command row is written with; `online` devices get it at once, sleeping ones hold it. */
const insertColumns = sql`(id, device, entity, type, payload, target, state, sent_by, sent_at, expires_at)`;

/**
 * Remote commands (ARCHITECTURE.md "Device protocol"). Every command is a row before it is
 * published; a device that is not connected holds it as `queued` until it wakes or the command
 * expires. The HTTP call waits for the reply up to the timeout; a late reply still settles the row.
 */
export class CommandService {
  private readonly progress: ProgressBatcher;

  constructor(private readonly o: Options) {
    this.progress = new ProgressBatcher(o.db, (err) => o.onError(err, 'recording progress'));
  }

  /** One device: answers when it replied, or at once when the command is held for a sleeping device. */
  async toDevice(actor: AccessClaims, entity: string, name: string, req: SendOptions) {
    const rows = await this.insert(
      actor,
      'device',
      req,
      sql`${randomUUID()}::uuid`,
      sql`d.name = ${name} and d.entity = ${entity}`,
    );
    const row = rows[0];
    if (!row) throw notFound('Device');
    if (row.state === 'queued') {
      return {
        status: 'queued' as const,
        userMessage: `Device ${name} is asleep: the command waits until it wakes (for up to ${waitFor(row)})`,
        data: presentCommand(row),
      };
    }
    const [settled] = await this.publishAndWait(rows, req.payload);
    const done = { ...row, ...settled!, replied_at: settled!.replied_at ? new Date(settled!.replied_at) : null };
    if (done.state === 'succeeded') return { status: 'success' as const, data: presentCommand(done) };
    const verb = COMMAND_LABELS[row.type];
    if (done.state === 'failed')
      throw new HttpError(502, `${verb} failed on device ${name}`, done.error ?? 'Device error');
    throw new HttpError(
      504,
      `Device ${name} did not answer in time`,
      `No reply within ${this.o.timeoutMs / 1000} s; a late reply still updates the command history`,
    );
  }

  /** Several devices of one entity: each gets its own command; answers when all replied or the timeout passed. */
  async toDevices(actor: AccessClaims, entity: string, names: string[], req: SendOptions): Promise<BulkCommandAnswer> {
    const rows = await this.insert(
      actor,
      'devices',
      req,
      sql`gen_random_uuid()`,
      sql`d.name = ${anyOf(names)} and d.entity = ${entity}`,
    );
    const found = new Set(rows.map((r) => r.device));
    const missing = names
      .filter((n) => !found.has(n))
      .map((device) => ({ device, state: 'not_found' as const, error: null }));
    const outcome = await this.settleAll(rows, req.payload, 'device');
    return this.summarise(req.payload, outcome, missing);
  }

  /** Every device of the entity, published once on the entity's command topic. */
  async toEntity(actor: AccessClaims, entity: string, req: SendOptions): Promise<BulkCommandAnswer> {
    const rows = await this.insert(actor, 'entity', req, sql`${randomUUID()}::uuid`, sql`d.entity = ${entity}`);
    const outcome = await this.settleAll(rows, req.payload, 'entity');
    return this.summarise(req.payload, outcome, [], 100);
  }

  /**
   * Long work (a firmware update) to the named devices: written like any command, published to
   * those online without waiting for replies (held for the others), and answered as rows. The
   * device's final reply settles each row later, or the sweep times it out.
   */
  async start(actor: AccessClaims, entity: string, names: string[], target: Target, req: SendOptions) {
    const rows = await this.insert(
      actor,
      target,
      req,
      sql`gen_random_uuid()`,
      sql`d.name = ${anyOf(names)} and d.entity = ${entity}`,
    );
    const live = rows.filter((r) => r.state === 'sent');
    const published = Promise.all(
      live.map((r) =>
        this.o.link.publish(topics.deviceCommands(r.entity, r.device), commandMessage(r.id, req.payload, r.expires_at)),
      ),
    );
    try {
      await beforeDeadline(published, Date.now() + this.o.timeoutMs);
    } catch (err) {
      await this.hold(live);
      this.o.onError(err, 'publishing a command');
      return rows.map((r) => ({ ...r, state: 'queued' as const, sent_at: null }));
    }
    return rows;
  }

  /** A device's progress on long work: the phase and percentage go on its command row (batched). */
  onProgress(device: string, event: DfuEvent): void {
    this.progress.add(device, event);
  }

  /** Shutdown, before the broker closes: calls waiting for replies get `ms` more, then answer 503. */
  drain(ms: number): Promise<void> {
    return this.o.waiters.drain(ms);
  }

  /** Writes progress still pending; the device side calls it before the database closes. */
  flushProgress(): Promise<void> {
    return this.progress.flush();
  }

  /** A device's reply: settles its row (even after a timeout) and answers whoever waits. */
  async onReply(device: string, reply: ReplyMessage): Promise<boolean> {
    await this.progress.flush();
    const state = reply.status === 'success' ? 'succeeded' : 'failed';
    const error = reply.status === 'error' ? (reply.error ?? 'The device reported an error') : null;
    const reported = typeof reply.data?.fw_version === 'string' ? reply.data.fw_version : null;
    // A firmware update succeeds only when the device comes back running the version it was sent.
    const wrongVersion = sql`(type = 'dfu' and ${state}::text = 'succeeded' and payload->>'version' is distinct from ${reported}::text)`;
    const [row] = rowsOf<CommandRow>(
      await this.o.db.execute(sql`
        update commands set
          state = case when ${wrongVersion} then 'failed' else ${state}::text end,
          error = case when ${wrongVersion}
            then 'The device reported version ' || coalesce(${reported}::text, '(none)') || ' instead of ' || (payload->>'version')
            else ${error}::text end,
          progress = case when type = 'dfu' and ${state}::text = 'succeeded' and not ${wrongVersion} then 100 else progress end,
          replied_at = now(),
          latency_ms = case when sent_at is null then null
            else round(extract(epoch from clock_timestamp() - sent_at) * 1000) end
        where id = ${reply.id} and device = ${device} and state in ('queued', 'sent', 'timed_out')
        returning *`),
    );
    if (!row) return false;
    if (row.type === 'dfu') {
      await this.o.db.execute(sql`
        update devices set current_download = null
        where name = ${device} and current_download like ${`${DOWNLOAD_PREFIX}%`}`);
    }
    if (row.type === 'allocate' && row.state === 'failed') await closeRefusedAllocation(this.o.db, device, row.payload);
    if ((row.type === 'refresh' || row.type === 'dfu') && reply.data) {
      const report = StateReportSchema.safeParse(reply.data);
      if (report.success) this.o.telemetry.report(device, report.data);
    }
    await this.o.waiters.settle({
      id: row.id,
      device,
      state: row.state as 'succeeded' | 'failed',
      error: row.error,
      replied_at: new Date(row.replied_at!).toISOString(),
      latency_ms: row.latency_ms === null ? null : Number(row.latency_ms),
    });
    return true;
  }

  /** Devices that woke: their held commands go out now, each claimed by exactly one instance. */
  async deliverHeld(woken: Woken[]): Promise<void> {
    if (woken.length === 0) return;
    const rows = rowsOf<CommandRow>(
      await this.o.db.execute(sql`
        update commands set state = 'sent', sent_at = now()
        where state = 'queued' and expires_at > now() and device = ${anyOf(woken.map((w) => w.name))}
        returning *`),
    );
    rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
    for (const row of rows) {
      const message = commandMessage(
        row.id,
        { type: row.type, ...row.payload } as DevicePayload,
        new Date(row.expires_at),
      );
      this.o.link.publish(topics.deviceCommands(row.entity, row.device), message).catch((err) => {
        this.o.onError(err, 'publishing a held command');
      });
    }
  }

  /**
   * The periodic sweep, on every instance (each statement is idempotent): held commands past
   * their expiry expire, unanswered ones time out, and held ones of devices seen online go out.
   */
  async sweep(): Promise<void> {
    const { db } = this.o;
    await db.execute(sql`
      update commands set state = 'expired', error = 'Expired before the device woke'
      where state = 'queued' and expires_at <= now()`);
    await db.execute(sql`
      update commands set state = 'timed_out', error = ${this.timeoutText()}
      where state = 'sent' and type <> 'dfu' and sent_at < now() - make_interval(secs => ${(this.o.timeoutMs + 1000) / 1000})`);
    await db.execute(sql`
      with late as (
        update commands set state = 'timed_out',
          error = ${`The firmware update did not finish within ${Math.round(this.o.dfuTimeoutMs / 60_000)} minutes`}
        where state = 'sent' and type = 'dfu' and sent_at < now() - make_interval(secs => ${this.o.dfuTimeoutMs / 1000})
        returning device)
      update devices set current_download = null
      where name in (select device from late) and current_download like ${`${DOWNLOAD_PREFIX}%`}`);
    const owed = rowsOf<Woken>(
      await db.execute(sql`
        select distinct d.name, d.entity from commands c join devices d on d.name = c.device
        where c.state = 'queued' and c.expires_at > now() and d.online`),
    );
    await this.deliverHeld(owed);
  }

  /** Puts sent rows back to held, for the sweep to deliver once the broker is back. */
  private async hold(rows: CommandRow[]) {
    if (rows.length === 0) return;
    await this.o.db.execute(sql`
      update commands set state = 'queued', sent_at = null
      where state = 'sent' and id::text = ${anyOf(rows.map((r) => r.id))} and device = ${anyOf(rows.map((r) => r.device))}`);
  }

  private timeoutText() {
    return `No reply within ${this.o.timeoutMs / 1000} s`;
  }

  /**
   * Writes one command per device the `devices` clause selects (`d` is the devices row; `id` the
   * command id to use), held for devices that are not connected, and answers the rows.
   */
  private async insert(actor: AccessClaims, target: Target, req: SendOptions, id: SQL, devicesClause: SQL) {
    const { type, ...args } = req.payload;
    const ttl = req.expires_in_s ?? DEFAULT_COMMAND_TTL_S;
    return rowsOf<CommandRow>(
      await this.o.db.execute(sql`
        insert into commands ${insertColumns}
        select ${id}, d.name, d.entity, ${type}, ${JSON.stringify(args)}::jsonb, ${target},
          case when d.online then 'sent' else 'queued' end, ${actor.sub},
          case when d.online then now() end, now() + make_interval(secs => ${ttl})
        from devices d where ${devicesClause}
        returning *`),
    ).map((row) => ({ ...row, created_at: new Date(row.created_at), expires_at: new Date(row.expires_at) }));
  }

  /**
   * Publishes the sent rows and waits for their replies; answers each row's outcome in order.
   * While the server shuts down: 503 (with a retry hint) for a call the drain let go, and rows
   * not yet published are held, to go out from another instance or after the restart.
   */
  private async publishAndWait(rows: CommandRow[], payload: DevicePayload, via: 'device' | 'entity' = 'device') {
    const live = rows.filter((r) => r.state === 'sent');
    if (this.o.waiters.closed) {
      await this.hold(live);
      throw heldOnShutdown();
    }
    const deadline = Date.now() + this.o.timeoutMs;
    const replies = live.map((r) => this.o.waiters.wait(r.id, r.device, deadline));
    const message = (row: CommandRow) => commandMessage(row.id, payload, row.expires_at);
    try {
      const published: Promise<unknown> =
        via === 'entity' && live.length > 0
          ? this.o.link.publish(topics.entityCommands(live[0]!.entity), message(live[0]!))
          : Promise.all(live.map((r) => this.o.link.publish(topics.deviceCommands(r.entity, r.device), message(r))));
      // A broker link that is down queues the publication; the caller does not wait past the timeout.
      await beforeDeadline(published, deadline);
    } catch (err) {
      // Not published: hold them, so the sweep delivers them once the broker is back.
      await this.hold(live);
      this.o.onError(err, 'publishing a command');
      throw new HttpError(
        503,
        'The MQTT broker is unreachable',
        'The command is held and goes out when the broker is back',
      );
    }
    const outcomes = await Promise.all(replies);
    if (outcomes.includes(SHUT_DOWN)) {
      throw unansweredOnShutdown();
    }
    const timedOut = live.filter((_, i) => outcomes[i] === null);
    if (timedOut.length > 0) {
      await this.o.db.execute(sql`
        update commands set state = 'timed_out', error = ${this.timeoutText()}
        where state = 'sent' and id::text = ${anyOf(timedOut.map((r) => r.id))} and device = ${anyOf(timedOut.map((r) => r.device))}`);
    }
    return live.map<CommandSettled>(
      (r, i) =>
        (outcomes[i] as CommandSettled | null) ?? {
          id: r.id,
          device: r.device,
          state: 'timed_out',
          error: this.timeoutText(),
          replied_at: null,
          latency_ms: null,
        },
    );
  }

  private async settleAll(rows: CommandRow[], payload: DevicePayload, via: 'device' | 'entity'): Promise<Outcome[]> {
    const settled = await this.publishAndWait(rows, payload, via);
    const byKey = new Map(settled.map((s) => [`${s.id}/${s.device}`, s]));
    return rows.map((r) => {
      const s = byKey.get(`${r.id}/${r.device}`);
      return { device: r.device, state: s?.state ?? r.state, error: s?.error ?? null };
    });
  }

  private summarise(
    payload: DevicePayload,
    results: Outcome[],
    missing: Array<{ device: string; state: 'not_found'; error: null }>,
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
}
