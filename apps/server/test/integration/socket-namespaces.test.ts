import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBeacons } from '../helpers/beacons.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

/**
 * The Socket.IO server serves `/beacon-demo` only: its main namespace `/`, which nothing uses,
 * refuses every connection (with or without a token), as does any other namespace.
 */

let s: TestServer;
let root = '';
let acme = '';

beforeAll(async () => {
  ({ s, root, acme } = await startWithTwoEntities({}, { shared: true }));
});
afterAll(async () => s?.close());

/** Connects to `namespace`: resolves 'connected', or the `connect_error` message. */
function tryNamespace(namespace: string, auth: Record<string, string> = {}): Promise<string> {
  const socket = io(s.url + namespace, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  return new Promise<string>((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (err) => resolve(err.message));
  }).finally(() => socket.disconnect());
}

describe('Socket.IO namespaces', () => {
  it('the main namespace refuses a connection without a token', async () => {
    expect(await tryNamespace('/')).toBe('Namespace not found');
  });

  it('the main namespace refuses a connection with a valid token too', async () => {
    expect(await tryNamespace('/', { token: root, entity: acme })).toBe('Namespace not found');
  });

  it('any other namespace is refused', async () => {
    expect(await tryNamespace('/admin', { token: root })).toBe('Invalid namespace');
  });

  it('/beacon-demo still takes a valid token, and refuses none', async () => {
    const client = await connectBeacons(s.url, { token: root, entity: acme });
    client.close();
    expect(await tryNamespace('/beacon-demo')).toBe('Authentication required');
  });
});
