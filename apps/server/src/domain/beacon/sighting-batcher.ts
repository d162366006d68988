import { randomUUID } from 'node:crypto';
import { BeaconSightingSchema, REMINDER_COMMAND, type ReminderMessage } from '@fleet/shared/beacon-protocol';
import { formatMedications, normaliseBeaconMac, type BeaconEvent } from '@fleet/shared/schemas/beacon';
import type { Db } from '../../db/client.ts';
import { FlushLoop } from '../../lib/batching/flush-loop.ts';
import type { BeaconConfigCache } from './beacon-config-cache.ts';
import { dueDoses } from './due-times.ts';
import { detectedEvent, keyOf, planEvents, type Candidate, type ReminderRow, type Sighting } from './event-rules.ts';
import { presentBeaconEvent, type BeaconConfigRow } from './present-beacon.ts';
import {
  confirmReminders,
  insertEvents,
  insertReminders,
  readReminders,
  touchGateways,
  type ReminderKey,
} from './sighting-queries.ts';
import { SightingMerge } from './sighting-merge.ts';
import { trimBeaconEvents } from './trim-beacon-events.ts';

interface Options {
  cache: BeaconConfigCache;
  /** A sighting after a reminder, at least this long after it, at the same gateway, confirms the visit. */
  confirmAfterMs: number;
  /** Repeated sightings of a beacon at a gateway within this long are not stored again (sighting-merge.ts). */
  mergeWindowMs?: number;
  /** Stored events an entity keeps at most; the oldest beyond it are deleted. */
  quota?: number;
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
/** Reminder records remembered at most (a day's doses of every configured beacon fit many times). */
const MAX_KNOWN_REMINDERS = 50_000;
const REMINDER_TTL_MS = 15 * 60_000;

/** What a flush writes: everything heard since the one before. */
interface Batch {
  /** Sightings of an entity whose configurations were not read yet: judged at the flush. */
  unjudged: Sighting[];
  /** Sightings that passed the rules (some already announced to browsers). */
  candidates: Candidate[];
  /** Each gateway's latest sighting. */
  gateways: Map<string, { device: string; entity: string; at: string }>;
  size: number;
}

const emptyBatch = (): Batch => ({ unjudged: [], candidates: [], gateways: new Map(), size: 0 });

/** The sighting as a candidate when its beacon is configured, active, and heard at or above its threshold. */
function judge(configs: Map<string, BeaconConfigRow>, s: Sighting): Candidate | null {
  const config = configs.get(s.mac);
  return config?.active && s.rssi >= config.rssi_threshold
    ? { sighting: s, config, doses: dueDoses(config.medications, s.at) }
    : null;
}

/**
 * Beacon sightings into events. A sighting whose outcome is known on arrival (the entity's
 * configurations cached, and every due dose's reminder already recorded) reaches the browsers at
 * once; the database work is batched like telemetry: one flush every interval (or at maxBatch)
 * writes every sighting heard since the last with a handful of statements whatever the rate, and
 * decides the rest (a reminder to send, a visit to confirm: the database arbitrates between
 * instances), whose events go out once written.
 */
export class SightingBatcher {
  private pending = emptyBatch();
  /**
   * Takes its batch when the previous write has finished, not when flush() is called: a write is
   * several statements, and while the database is slow, sightings gather into one larger write
   * instead of a queue of small ones that falls further behind with every interval.
   * The metrics read its depth and time its writes.
   */
  readonly loop: FlushLoop<Batch>;
  /**
   * Reminder records already seen, by dose. A record never goes away while its dose can be due,
   * so a dose found here needs no query: the sighting's event is marked sent at once.
   */
  private readonly known = new Map<string, Omit<ReminderRow, 'fresh'>>();
  readonly counts = {
    sightings: 0,
    events: 0,
    announced: 0,
    reminders: 0,
    dropped: 0,
    flushes: 0,
    merged: 0,
    pruned: 0,
  };
  private readonly merge: SightingMerge;
  /** Events written per entity since its last trim; a trim runs every tenth of the quota (and first). */
  private readonly sinceTrim = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly o: Options,
  ) {
    this.merge = new SightingMerge(o.mergeWindowMs ?? 0);
    this.loop = new FlushLoop({
      take: 'when-flush-starts',
      intervalMs: o.intervalMs ?? 25,
      maxBatch: o.maxBatch ?? 1000,
      collect: () => {
        if (this.pending.size === 0) return undefined;
        const batch = this.pending;
        this.pending = emptyBatch();
        return batch;
      },
      write: (batch) => this.write(batch),
      onError: (err) => o.onError(err, 'writing beacon sightings'),
    });
  }

  /** A gateway's message on its `beacon` topic; false when it is not a sighting. */
  sighting(gateway: { name: string; entity: string }, body: unknown, at = new Date()): boolean {
    const parsed = BeaconSightingSchema.safeParse(body);
    if (!parsed.success) return false;
    const batch = this.pending;
    if (batch.size >= MAX_PENDING) {
      this.counts.dropped++;
      return true;
    }
    this.counts.sightings++;
    batch.size++;
    const s = {
      gateway: gateway.name,
      entity: gateway.entity,
      mac: normaliseBeaconMac(parsed.data.beacon_mac),
      rssi: parsed.data.rssi,
      at,
    };
    batch.gateways.set(s.gateway, { device: s.gateway, entity: s.entity, at: at.toISOString() });
    const configs = this.o.cache.loaded(s.entity);
    if (!configs) batch.unjudged.push(s);
    else {
      const c = judge(configs, s);
      if (c && c.doses.every((d) => this.known.has(keyOf(c.config.id, d)))) {
        c.announced = detectedEvent(c, c.doses.length > 0);
        this.counts.announced++;
        this.o.onEvents(s.entity, [presentBeaconEvent(c.announced)]);
      }
      if (c) batch.candidates.push(c);
    }
    this.loop.added(batch.size);
    return true;
  }

  /** Writes everything pending; resolves when it is in the database and handed on. */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  private async write(batch: Batch): Promise<void> {
    this.counts.flushes++;
    await touchGateways(this.db, [...batch.gateways.values()]);
    const candidates = batch.candidates;
    for (const entity of new Set(batch.unjudged.map((s) => s.entity))) {
      const configs = await this.o.cache.entity(entity);
      for (const s of batch.unjudged) {
        const c = s.entity === entity ? judge(configs, s) : null;
        if (c) candidates.push(c);
      }
    }
    if (candidates.length === 0) return;
    const reminders = await this.reminders(candidates);
    const plan = planEvents(candidates, reminders, this.o.confirmAfterMs);
    const confirmed = await this.confirm(plan.toConfirm);
    const events = plan.events(confirmed);
    const stored = events.filter((e) => this.merge.keep(e));
    this.counts.merged += events.length - stored.length;
    const written = await insertEvents(this.db, stored);
    this.counts.events += written.size;
    await this.trim(stored);
    const announced = new Set(candidates.flatMap((c) => (c.announced ? [c.announced] : [])));
    const byEntity = new Map<string, BeaconEvent[]>();
    const kept = new Set(stored);
    const merged = new Set(events.filter((e) => !kept.has(e)));
    for (const e of events) {
      // A merged repeat is not stored but still reaches the browsers, as before.
      if (announced.has(e) || (!written.has(e.id) && !merged.has(e))) continue;
      const list = byEntity.get(e.entity) ?? [];
      list.push(presentBeaconEvent(e));
      byEntity.set(e.entity, list);
    }
    for (const [entity, list] of byEntity) this.o.onEvents(entity, list);
    // Remembered once their events are out, so no sighting is announced as sent before its reminder is.
    if (this.known.size + reminders.length > MAX_KNOWN_REMINDERS) this.known.clear();
    for (const { fresh: _, ...r } of reminders)
      this.known.set(keyOf(r.config_id, { date: r.due_date, time: r.due_time }), r);
    for (const k of plan.toConfirm) {
      const r = this.known.get(keyOf(k.config_id, { date: k.due_date, time: k.due_time }));
      // Confirmed here or, when the update found it done, on another instance.
      if (r) r.confirmed_at ??= new Date();
    }
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

  /** Holds each written entity to the quota, checking every tenth of it (and on its first write). */
  private async trim(written: Array<{ entity: string }>): Promise<void> {
    const quota = this.o.quota;
    if (!quota) return;
    const every = Math.ceil(quota / 10);
    for (const { entity } of written) this.sinceTrim.set(entity, (this.sinceTrim.get(entity) ?? every - 1) + 1);
    for (const [entity, n] of this.sinceTrim) {
      if (n < every) continue;
      this.sinceTrim.set(entity, 0);
      this.counts.pruned += await trimBeaconEvents(this.db, entity, quota);
    }
  }

  /**
   * Every reminder record of the candidates' due doses, with whether this flush sent it. Doses
   * not seen before get a record (the primary key lets exactly one instance and one sighting win)
   * and are read back; the others come from memory.
   */
  private async reminders(candidates: Candidate[]): Promise<ReminderRow[]> {
    const out = new Map<string, ReminderRow>();
    const missing = new Map<string, ReminderKey & { gateway: string }>();
    for (const c of candidates)
      for (const d of c.doses) {
        const key = keyOf(c.config.id, d);
        const known = this.known.get(key);
        if (known) out.set(key, { ...known, fresh: false });
        else if (!missing.has(key))
          missing.set(key, { config_id: c.config.id, due_date: d.date, due_time: d.time, gateway: c.sighting.gateway });
      }
    if (missing.size === 0) return [...out.values()];
    const list = [...missing.values()];
    const inserted = await insertReminders(this.db, list);
    const fresh = new Set(inserted.map((r) => keyOf(r.config_id, { date: r.due_date, time: r.due_time })));
    for (const r of await readReminders(this.db, list)) {
      const key = keyOf(r.config_id, { date: r.due_date, time: r.due_time });
      out.set(key, { ...r, fresh: fresh.has(key) });
    }
    return [...out.values()];
  }

  /** Marks visits confirmed; answers the keys this flush confirmed (each is confirmed once, on one instance). */
  private async confirm(keys: ReminderKey[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await confirmReminders(this.db, keys);
    return new Set(rows.map((r) => `${r.config_id} ${r.due_date} ${r.due_time}`));
  }
}
