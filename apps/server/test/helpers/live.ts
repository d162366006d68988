import { randomBytes } from 'node:crypto';
import { BEACON_SOCKET_EVENTS } from '@fleet/shared/beacon-constants';
import { connectBeacons, type BeaconClient } from './beacons.ts';
import { connectDevice, eventually, randomDeviceId, registerDevice, type TestDevice } from './devices.ts';
import type { TestServer } from './server.ts';
import { createAccount } from './session.ts';
import { startForUploads, upload } from './uploads.ts';

type Server = Pick<TestServer, 'url' | 'request'>;

/** An event stream held open: `closed` settles when the server ends it (or `close()` cuts it). */
export interface OpenStream {
  closed: Promise<void>;
  isOpen(): boolean;
  close(): void;
}

/** Opens an event stream with `token` and resolves once its `connection` event arrived. */
export async function openStream(url: string, token: string): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
    signal: abort.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('event: connection')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended before its connection event');
    text += decoder.decode(value, { stream: true });
  }
  let open = true;
  const closed = (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // cut by close()
    }
    open = false;
  })();
  return { closed, isOpen: () => open, close: () => abort.abort() };
}

/** A `/beacon-demo` socket and a provisioning event stream opened with one token. */
export interface Live {
  socket: BeaconClient;
  stream: OpenStream;
  /** Resolves once the server ended both: the reason it gave the socket, and the socket's disconnect reason. */
  ended(): Promise<{ reason: unknown; disconnect: string }>;
  isOpen(): boolean;
  close(): void;
}

/** Opens a socket following `entity` and the event stream of `device`'s provisioning session, with `token`. */
export async function openLive(s: Server, token: string, entity: string, device: string): Promise<Live> {
  const stream = await openStream(`${s.url}/api/v1/tenant/${entity}/provision/${device}/events`, token);
  const socket = await connectBeacons(s.url, { token, entity });
  let reason: unknown;
  socket.socket.on(BEACON_SOCKET_EVENTS.connectionEnded, (m: { reason: unknown }) => (reason = m.reason));
  const disconnected = new Promise<string>((resolve) => socket.socket.once('disconnect', resolve));
  return {
    socket,
    stream,
    async ended() {
      const [disconnect] = await Promise.all([disconnected, stream.closed]);
      return { reason, disconnect };
    },
    isOpen: () => socket.socket.connected && stream.isOpen(),
    close() {
      socket.close();
      stream.close();
    },
  };
}

/** A new account of `entity` (an admin unless told), signed in. */
export const addAccount = (s: Server, root: string, entity: string, subtype = 'admin') =>
  createAccount(s, root, { name: `live_${randomBytes(4).toString('hex')}`, entity, subtype });

/** A permanent token of `account`, generated with its own session. */
export async function permanentToken(s: Server, entity: string, account: { name: string; access_token: string }) {
  const res = await s.request(
    'GET',
    `/api/v1/tenant/${entity}/account/${account.name}/permanent-token?description=live`,
    {
      token: account.access_token,
    },
  );
  if (res.status !== 200) throw new Error(`permanent token: ${res.status} ${res.text}`);
  return res.body as { token: string; token_hash: string };
}

/**
 * A connected device of `entity` in an open provisioning session (an entity-level file to fetch,
 * which it never finishes), so its event stream stays open until the session times out.
 */
export async function deviceInSession(s: TestServer, token: string, entity: string): Promise<TestDevice> {
  const fields = { level: 'entity', entity_id: entity, file_device_path: 'config/app.json' };
  const file = await upload(s, `/api/v1/tenant/${entity}/files`, token, { fields, filename: 'app.json', bytes: 64 });
  if (file.status !== 201) throw new Error(`upload: ${file.status}`);
  const device = await connectDevice(s, entity, await registerDevice(s, token, entity, randomDeviceId()));
  await eventually(async () => {
    const res = await s.request('POST', `/api/v1/tenant/${entity}/provision/${device.name}`, { token });
    if (res.status !== 200) throw new Error(`provision: ${res.status} ${res.text}`);
  });
  return device;
}

export type LiveFixture = Awaited<ReturnType<typeof startLiveFixture>>;

/**
 * A server with two entities (`entity` with its `admin`, and `other`) and a device of `entity` in
 * an open provisioning session. `live()` opens a socket and a stream on this server or a peer;
 * `close()` closes them, the devices and the server.
 */
export async function startLiveFixture() {
  // Sessions that never time out on their own: only a lapsed right ends their streams.
  const { s, root, acme, globex, tokens } = await startForUploads({ PROVISION_TIMEOUT_MS: '3600000' });
  const devices = [await deviceInSession(s, tokens.admin, acme)];
  const opened: Live[] = [];
  const device = devices[0]!.name;
  return {
    s,
    root,
    entity: acme,
    other: globex,
    admin: tokens.admin,
    device,
    async live(token: string, o: { on?: Server; entity?: string; device?: string } = {}) {
      const l = await openLive(o.on ?? s, token, o.entity ?? acme, o.device ?? device);
      opened.push(l);
      return l;
    },
    /** A device of `entity` in an open session (closed with the fixture). */
    async inSession(token: string, entity: string) {
      const d = await deviceInSession(s, token, entity);
      devices.push(d);
      return d;
    },
    async close() {
      for (const l of opened) l.close();
      await Promise.all(devices.map((d) => d.close()));
      await s.close();
    },
  };
}
