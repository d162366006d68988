import type { BeaconEvent } from '@fleet/shared/schemas/beacon';
import type { Tone } from './tone-pill.tsx';

/** What each event type is called on screen. */
export const EVENT_LABELS: Record<BeaconEvent['event_type'], string> = {
  beacon_detected: 'Beacon detected',
  message_sent: 'Reminder sent',
  confirm_visit: 'Visit confirmed',
};

export const EVENT_COLORS: Record<BeaconEvent['event_type'], Tone> = {
  beacon_detected: 'blue',
  message_sent: 'green',
  confirm_visit: 'grape',
};

/** Time of day of an event, e.g. 14:03:27. */
export const timeOfDay = (iso: string) => new Date(iso).toLocaleTimeString([], { hour12: false });
