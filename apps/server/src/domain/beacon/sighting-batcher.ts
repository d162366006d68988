import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { BeaconSightingSchema, REMINDER_COMMAND, type ReminderMessage } from '@fleet/shared/beacon-protocol';
import { formatMedications, normaliseBeaconMac, type BeaconEvent } from '@fleet/shared/schemas/beacon';
import type { Db } from '../../db/client.ts';
import type { BeaconConfigCache } from './beacon-config-cache.ts';
import { dueDoses } from './due-times.ts';
import { planEvents, type Candidate, type ReminderRow } from './event-rules.ts';
import { presentBeaconEvent, type BeaconEventRow } from './present-beacon.ts';

export interface Sighting {
  gateway: string;
  entity: string;
  mac: string;
  rssi: number;
  at: Date;
}

interface Options {
  cache: BeaconConfigCache;
  /** A sighting after a reminder, at least this long after it, at the same gateway, confirms the visit. */
  confirmAfterMs: number;
  /** Events written in a flush, by entity, for the browsers. */
  onEvents(entity: string, events: BeaconEvent[]): void;
  /** A reminder for a gateway, already recorded: publish it. */
  sendReminder(entity: string, gateway: string, message: ReminderMessage): Promise<void>;
  onError(err: unknown, what: string): void;
  intervalMs?: number;
  maxBatch?: number;
}

/** Sightings held at most; past this a flood is dropped rather than growing memory without bound. */
const MAX_PENDING = 50_000;
const REMINDER_TTL_MS = 15 * 60_000;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const json = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;

/**
 * Beacon sightings into events, in batches like telemetry: one flush every interval (or at
 * maxBatch) applies the event rules (event-rules.ts) to every sighting heard since the last, with
 * a handful of statements whatever the rate.
 */
export class SightingBatcher {
  private pending: Sighting[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** A flush is waiting for the one in progress; it will take whatever is pending then. */
  private queued = false;
  readonly counts = { sightings: 0, events: 0, reminders: 0, dropped: 0, flushes: 0 };

  constructor(
    private readonly db: Db,
    private readonly o: Options,
  ) {}

  /** A gateway's message on its `beacon` topic; false when it is not a sighting. */
  sighting(gateway: { name: string; entity: string }, body: unknown, at = new Date()): boolean {
    const parsed = BeaconSightingSchema.safeParse(body);
    if (!parsed.success) return false;
    if (this.pending.length >= MAX_PENDING) {
      this.counts.dropped++;
      return true;
    }
    this.counts.sightings++;
    const mac = normaliseBeaconMac(parsed.data.beacon_mac);
    this.pending.push({ gateway: gateway.name, entity: gateway.entity, mac, rssi: parsed.data.rssi, at });
    if (this.pending.length >= (this.o.maxBatch ?? 1000)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.o.intervalMs ?? 25);
    return true;
  }

  /**
   * Writes everything pending; resolves when it is in the database and handed on. The batch is
   * taken when the previous write has finished, not when flush() is called: a write is several
   * statements, and while the database is slow, sightings gather into one larger write instead
   * of a queue of small ones that falls further behind with every interval. (The telemetry
   * batcher keeps taking its batch at once: its one statement keeps up, and small writes keep
   * the other queries' waits on the embedded database's one connection short.)
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queued) return this.flushing;
    this.queued = true;
    this.flushing = this.flushing.then(() => {
      this.queued = false;
      const batch = this.pending;
      this.pending = [];
      return batch.length > 0
        ? this.write(batch).catch((err) => this.o.onError(err, 'writing beacon sightings'))
        : undefined;
    });
    return this.flushing;
  }

  private async write(batch: Sighting[]): Promise<void> {
    this.counts.flushes++;
    await this.touchGateways(batch);
    const candidates: Candidate[] = [];
    for (const entity of new Set(batch.map((s) => s.entity))) {
      const configs = await this.o.cache.entity(entity);
      for (const s of batch) {
        if (s.entity !== entity) continue;
        const config = configs.get(s.mac);
        if (config?.active && s.rssi >= config.rssi_threshold)
          candidates.push({ sighting: s, config, doses: dueDoses(config.medications, s.at) });
      }
    }
    if (candidates.length === 0) return;
    const plan = planEvents(candidates, await this.reminders(candidates), this.o.confirmAfterMs);
    const confirmed = await this.confirm(plan.toConfirm);
    const rows = rowsOf<BeaconEventRow>(
      await this.db.execute(sql`
        insert into beacon_events (entity, event_type, beacon_mac, patient, room, rssi, gateway, medications, message_sent, timestamp)
        select v.entity, v.event_type, v.beacon_mac, v.patient, v.room, v.rssi, v.gateway, v.medications, v.message_sent, v.timestamp
        from jsonb_to_recordset(${json(plan.events(confirmed))}) as v(entity text, event_type text, beacon_mac text,
          patient text, room text, rssi smallint, gateway text, medications jsonb, message_sent boolean, timestamp timestamptz)
        where exists (select 1 from entities e where e.name = v.entity)
        returning *`),
    );
    this.counts.events += rows.length;
    const byEntity = new Map<string, BeaconEvent[]>();
    for (const row of rows) {
      const list = byEntity.get(row.entity) ?? [];
      list.push(presentBeaconEvent(row));
      byEntity.set(row.entity, list);
    }
    for (const [entity, events] of byEntity) this.o.onEvents(entity, events);
    for (const r of plan.sent) {
      this.counts.reminders++;
      const message: ReminderMessage = {
        id: randomUUID(),
        type: REMINDER_COMMAND,
        payload: {
          beacon_mac: r.config.beacon_mac,
          patient: r.config.patient_name,
          room: r.config.room_number,
          due_time: r.dose.time,
          medications: r.dose.medications,
        },
        expires_at: new Date(Date.now() + REMINDER_TTL_MS).toISOString(),
      };
      this.o
        .sendReminder(r.config.entity, r.gateway, message)
        .catch((err) => this.o.onError(err, `sending a reminder (${formatMedications(r.config.medications)})`));
    }
  }

  /** Gateways that are still registered, with their latest sighting time. */
  private async touchGateways(batch: Sighting[]): Promise<void> {
    const latest = new Map<string, { device: string; entity: string; at: string }>();
    for (const s of batch) latest.set(s.gateway, { device: s.gateway, entity: s.entity, at: s.at.toISOString() });
    const list = [...latest.values()].sort((a, b) => (a.device < b.device ? -1 : 1));
    await this.db.execute(sql`
      insert into beacon_gateways (device, entity, last_sighting_at)
      select v.device, d.entity, v.at from jsonb_to_recordset(${json(list)}) as v(device text, entity text, at timestamptz)
      join devices d on d.name = v.device and d.entity = v.entity
      on conflict (device) do update set entity = excluded.entity,
        last_sighting_at = greatest(beacon_gateways.last_sighting_at, excluded.last_sighting_at)`);
  }

  /**
   * Records a reminder for every due dose not yet reminded (the primary key lets exactly one
   * instance and one sighting win), then answers every reminder of those doses with whether this
   * flush sent it.
   */
  private async reminders(candidates: Candidate[]): Promise<ReminderRow[]> {
    const keys = new Map<string, { config_id: string; due_date: string; due_time: string; gateway: string }>();
    for (const c of candidates)
      for (const d of c.doses)
        if (!keys.has(`${c.config.id} ${d.date} ${d.time}`))
          keys.set(`${c.config.id} ${d.date} ${d.time}`, {
            config_id: c.config.id,
            due_date: d.date,
            due_time: d.time,
            gateway: c.sighting.gateway,
          });
    if (keys.size === 0) return [];
    const list = [...keys.values()];
    const inserted = rowsOf<{ config_id: string; due_date: string; due_time: string }>(
      await this.db.execute(sql`
        insert into beacon_reminders (config_id, due_date, due_time, gateway)
        select v.config_id, v.due_date, v.due_time, v.gateway
        from jsonb_to_recordset(${json(list)}) as v(config_id uuid, due_date text, due_time text, gateway text)
        where exists (select 1 from beacon_configs c where c.id = v.config_id)
        order by v.config_id, v.due_date, v.due_time
        on conflict do nothing
        returning config_id, due_date, due_time`),
    );
    const fresh = new Set(inserted.map((r) => `${r.config_id} ${r.due_date} ${r.due_time}`));
    const all = rowsOf<Omit<ReminderRow, 'fresh'>>(
      await this.db.execute(sql`
        select r.config_id, r.due_date, r.due_time, r.gateway, r.sent_at, r.confirmed_at
        from beacon_reminders r join jsonb_to_recordset(${json(list)}) as v(config_id uuid, due_date text, due_time text)
          on r.config_id = v.config_id and r.due_date = v.due_date and r.due_time = v.due_time`),
    );
    return all.map((r) => ({ ...r, fresh: fresh.has(`${r.config_id} ${r.due_date} ${r.due_time}`) }));
  }

  /** Marks visits confirmed; answers the keys this flush confirmed (each is confirmed once, on one instance). */
  private async confirm(keys: Array<{ config_id: string; due_date: string; due_time: string }>): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = rowsOf<{ config_id: string; due_date: string; due_time: string }>(
      await this.db.execute(sql`
        update beacon_reminders r set confirmed_at = now()
        from jsonb_to_recordset(${json(keys)}) as v(config_id uuid, due_date text, due_time text)
        where r.config_id = v.config_id and r.due_date = v.due_date and r.due_time = v.due_time
          and r.confirmed_at is null
        returning r.config_id, r.due_date, r.due_time`),
    );
    return new Set(rows.map((r) => `${r.config_id} ${r.due_date} ${r.due_time}`));
  }
}
