/** Beacon monitoring constants (fleet §5 and §9), shared by the server, the console and the simulator. */

export const BEACON_MEDICATIONS_MIN = 1;
export const BEACON_MEDICATIONS_MAX = 5;
export const BEACON_DEFAULT_DOSE_TIME = '08:00';
export const BEACON_DEFAULT_RSSI_THRESHOLD = -75;
export const BEACON_RSSI_MIN = -100;
export const BEACON_RSSI_MAX = -40;
export const BEACON_RSSI_STEP = 5;
/** The live feed keeps this many recent events. */
export const BEACON_FEED_SIZE = 50;
/** The event history asks for this many events, every BEACON_HISTORY_REFRESH_MS. */
export const BEACON_HISTORY_LIMIT = 100;
export const BEACON_HISTORY_REFRESH_MS = 10_000;
/** The stats cards cover this window. */
export const BEACON_STATS_WINDOW_MS = 24 * 3_600_000;
/** An active beacon drops off after this long without a detection (fleet §4). */
export const BEACON_ACTIVE_MS = 5 * 60_000;

export const BEACON_EVENT_TYPES = ['beacon_detected', 'confirm_visit', 'message_sent'] as const;
export type BeaconEventType = (typeof BEACON_EVENT_TYPES)[number];

export type RssiQuality = 'good' | 'warning' | 'bad';
/** fleet §9: above -60 good, above -70 warning, else bad. */
export function rssiQuality(rssi: number): RssiQuality {
  if (rssi > -60) return 'good';
  if (rssi > -70) return 'warning';
  return 'bad';
}
export const RSSI_COLORS: Record<RssiQuality, 'green' | 'yellow' | 'red'> = {
  good: 'green',
  warning: 'yellow',
  bad: 'red',
};

/** The Socket.IO namespace of the demo and its events (fleet §7). */
export const BEACON_NAMESPACE = '/beacon-demo';
export const BEACON_SOCKET_EVENTS = {
  connectionResponse: 'connection_response',
  beaconEvent: 'beacon_event',
  /** Sent just before the server ends a socket whose right lapsed: `{reason}` (LiveEndReason). */
  connectionEnded: 'connection_ended',
} as const;

/**
 * Why the server ended a live connection (socket or event stream): `token_expired` — the access
 * token it was opened with expired (renew and reconnect); `revoked` — its token, session, account
 * or entity is gone (reconnecting with the same session cannot succeed).
 */
export const LIVE_END_REASONS = ['token_expired', 'revoked'] as const;
export type LiveEndReason = (typeof LIVE_END_REASONS)[number];

/** The spec's beacon notices, word for word (fleet §8). */
export const BEACON_MESSAGES = {
  loadFailed: 'Failed to load beacon configurations',
  deleteFailed: 'Failed to delete beacon configuration',
  saveFailed: 'Failed to save beacon configuration',
  created: 'Beacon configuration created',
  updated: 'Beacon configuration updated',
  deleted: 'Beacon configuration deleted',
} as const;
