import { io, type Socket } from 'socket.io-client';
import { BEACON_NAMESPACE } from '@fleet/shared/beacon-constants';

export interface BeaconClient {
  socket: Socket;
  /** `beacon_event`s in arrival order. */
  events: any[];
  /** Resolves with the first event (already received or arriving within `ms`) that matches. */
  waitFor(match: (e: any) => boolean, ms?: number): Promise<any>;
  close(): void;
}

/** A browser's socket on `/beacon-demo`: resolves once `connection_response` arrived, rejects on `connect_error`. */
export function connectBeacons(url: string, auth: { token?: string; entity?: string }): Promise<BeaconClient> {
  const socket = io(url + BEACON_NAMESPACE, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  const events: any[] = [];
  const listeners = new Set<() => void>();
  socket.on('beacon_event', (e) => {
    events.push(e);
    for (const l of listeners) l();
  });
  const client: BeaconClient = {
    socket,
    events,
    waitFor(match, ms = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return false;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching beacon_event within ${ms} ms (got ${events.length})`));
        }, ms);
        listeners.add(check);
        check();
      });
    },
    close: () => void socket.disconnect(),
  };
  return new Promise((resolve, reject) => {
    socket.once('connection_response', () => resolve(client));
    socket.once('connect_error', (err) => {
      socket.disconnect();
      reject(err);
    });
  });
}

const pad = (n: number) => String(n).padStart(2, '0');
/** HH:MM of the server's local time, `minutes` from now. */
export const localTime = (minutes = 0) => {
  const d = new Date(Date.now() + minutes * 60_000);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** A beacon configuration form with one medication at `time`. */
export const beaconForm = (mac: string, time = localTime(180), extra: Record<string, unknown> = {}) => ({
  beacon_mac: mac,
  patient_name: `Patient ${mac.slice(-4)}`,
  room_number: '101',
  medications: [{ name: 'Aspirin', dosage: '100 mg', time }],
  ...extra,
});
