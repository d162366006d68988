import { formatMedications, type BeaconConfig, type BeaconEvent } from '@fleet/shared/schemas/beacon';
import type { beaconConfigs, beaconEvents } from '../../db/schema.ts';

export type BeaconConfigRow = typeof beaconConfigs.$inferSelect;
export type BeaconEventRow = typeof beaconEvents.$inferSelect;

const iso = (d: Date | string) => new Date(d).toISOString();

/** A configuration as the API shows it, with the formatted medication text for display. */
export function presentBeaconConfig(row: BeaconConfigRow): BeaconConfig {
  return {
    id: row.id,
    beacon_mac: row.beacon_mac,
    patient_name: row.patient_name,
    room_number: row.room_number,
    medications: row.medications,
    medications_text: formatMedications(row.medications),
    rssi_threshold: row.rssi_threshold,
    active: row.active,
    notes: row.notes,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/**
 * An event as the history, the feed and the socket carry it: a stored row, or one about to be
 * written (its time an ISO string). Raw SQL answers dates as strings: both read.
 */
export function presentBeaconEvent(row: Omit<BeaconEventRow, 'timestamp'> & { timestamp: Date | string }): BeaconEvent {
  return {
    id: row.id,
    event_type: row.event_type,
    patient: row.patient,
    beacon_mac: row.beacon_mac,
    room: row.room,
    rssi: Number(row.rssi),
    gateway: row.gateway,
    timestamp: iso(row.timestamp),
    medications: row.medications,
    message_sent: row.message_sent,
  };
}
