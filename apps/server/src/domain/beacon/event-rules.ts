import { randomUUID } from 'node:crypto';
import { formatMedication } from '@fleet/shared/schemas/beacon';
import type { BeaconEventType } from '@fleet/shared/beacon-constants';
import type { DueDose } from './due-times.ts';
import type { BeaconConfigRow } from './present-beacon.ts';

/** A gateway's sighting of a beacon, as received. */
export interface Sighting {
  gateway: string;
  entity: string;
  mac: string;
  rssi: number;
  at: Date;
}

/** A sighting of an active configured beacon at or above its threshold, with the doses due at that moment. */
export interface Candidate {
  sighting: Sighting;
  config: BeaconConfigRow;
  doses: DueDose[];
  /** Its `beacon_detected` event, when already sent to browsers on arrival (every due dose's reminder known). */
  announced?: EventInput;
}

/** A reminder record of a due dose; `fresh` when this flush is the one that sent it. */
export interface ReminderRow {
  config_id: string;
  due_date: string;
  due_time: string;
  gateway: string;
  sent_at: string | Date;
  confirmed_at: string | Date | null;
  fresh: boolean;
}

export interface EventInput {
  /** Made here, so an event can reach browsers before it is written. */
  id: string;
  entity: string;
  event_type: BeaconEventType;
  beacon_mac: string;
  patient: string;
  room: string | null;
  rssi: number;
  gateway: string;
  medications: string[];
  message_sent: boolean;
  timestamp: string;
}

type Key = { config_id: string; due_date: string; due_time: string };
/** A due dose of a configuration, as reminder records are keyed. */
export const keyOf = (configId: string, dose: { date: string; time: string }) =>
  `${configId} ${dose.date} ${dose.time}`;

function event(c: Candidate, type: BeaconEventType, medications: string[], messageSent: boolean): EventInput {
  return {
    id: randomUUID(),
    entity: c.config.entity,
    event_type: type,
    beacon_mac: c.config.beacon_mac,
    patient: c.config.patient_name,
    room: c.config.room_number,
    rssi: c.sighting.rssi,
    gateway: c.sighting.gateway,
    medications,
    message_sent: messageSent,
    timestamp: c.sighting.at.toISOString(),
  };
}

/** A candidate's `beacon_detected` event: marked sent when a due dose's reminder has gone out. */
export const detectedEvent = (c: Candidate, messageSent: boolean) =>
  event(c, 'beacon_detected', c.config.medications.map(formatMedication), messageSent);

/**
 * The event rules of docs/decisions.md ("Beacon events and reminders"), pure but for the events' ids:
 * every candidate is a `beacon_detected` event, marked sent when its due dose's reminder went out;
 * a reminder this flush recorded is a `message_sent` event and a command to the gateway that saw
 * the beacon; a later sighting at that gateway, at least `confirmAfterMs` after the reminder and
 * still within the dose's window, is the dose's one `confirm_visit`.
 */
export function planEvents(candidates: Candidate[], reminders: ReminderRow[], confirmAfterMs: number) {
  const byKey = new Map(reminders.map((r) => [`${r.config_id} ${r.due_date} ${r.due_time}`, r]));
  const detected: EventInput[] = [];
  const sentEvents: EventInput[] = [];
  const sent: Array<{ config: BeaconConfigRow; gateway: string; dose: DueDose }> = [];
  const toConfirm = new Map<string, { key: Key; candidate: Candidate; dose: DueDose }>();
  const announced = new Set<string>();

  for (const c of candidates) {
    const reminded = c.doses.filter((d) => byKey.has(keyOf(c.config.id, d)));
    detected.push(c.announced ?? detectedEvent(c, reminded.length > 0));
    for (const dose of reminded) {
      const key = keyOf(c.config.id, dose);
      const r = byKey.get(key)!;
      if (r.fresh) {
        if (announced.has(key) || r.gateway !== c.sighting.gateway) continue;
        announced.add(key);
        sentEvents.push(event(c, 'message_sent', dose.medications, true));
        sent.push({ config: c.config, gateway: r.gateway, dose });
        continue;
      }
      const waited = c.sighting.at.getTime() - new Date(r.sent_at).getTime();
      if (
        r.confirmed_at === null &&
        r.gateway === c.sighting.gateway &&
        waited >= confirmAfterMs &&
        !toConfirm.has(key)
      )
        toConfirm.set(key, {
          key: { config_id: c.config.id, due_date: dose.date, due_time: dose.time },
          candidate: c,
          dose,
        });
    }
  }

  return {
    sent,
    toConfirm: [...toConfirm.values()].map((v) => v.key),
    /** Every event to write, given the keys whose confirmation this flush won. */
    events(confirmed: Set<string>): EventInput[] {
      const visits = [...toConfirm.entries()]
        .filter(([key]) => confirmed.has(key))
        .map(([, v]) => event(v.candidate, 'confirm_visit', v.dose.medications, true));
      return [...detected, ...sentEvents, ...visits];
    },
  };
}
