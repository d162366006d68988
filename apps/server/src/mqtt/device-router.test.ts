import { describe, expect, it } from 'vitest';
import type { DeviceDirectory, DeviceIdentity } from './device-directory.ts';
import { LinkStats } from './device-link.ts';
import { createDeviceRouter, type DeviceRouteKind, type DeviceRoutes } from './device-router.ts';

const ACME: DeviceIdentity = { name: 'aabbccddeeff', entity: 'acme', secretHash: 'x' };
const ID = '0b5a3c1e-7f7b-4c8e-9a51-2d7b0d9b6f10';

/** A directory that knows one device, from memory. */
const directory = { peek: (name: string) => (name === ACME.name ? ACME : null) } as unknown as DeviceDirectory;

/** A router with every route registered, recording what each was handed. */
function routed(skip: DeviceRouteKind[] = []) {
  const stats = new LinkStats();
  const calls: Array<[DeviceRouteKind, ...unknown[]]> = [];
  const router = createDeviceRouter({
    directory,
    stats,
    budget: null,
    onError: (err) => calls.push(['error' as never, err]),
  });
  const routes: DeviceRoutes = {
    state: (device, report) => void calls.push(['state', device.name, report]),
    alive: (device) => void calls.push(['alive', device.name]),
    presence: (device, online) => void calls.push(['presence', device, online]),
    reply: async (device, reply) => (calls.push(['reply', device.name, reply.id]), reply.id === ID),
    dfu: (device, event) => void calls.push(['dfu', device.name, event.phase]),
    provision: (device, event) => void calls.push(['provision', device.name, event.phase]),
    beacon: (device, body) => (calls.push(['beacon', device.name]), (body as { ok?: boolean }).ok === true),
  };
  for (const kind of Object.keys(routes) as DeviceRouteKind[])
    if (!skip.includes(kind)) router.register(kind, routes[kind] as never);
  router.seal();
  const send = async (kind: string, body: unknown, device = ACME.name) => {
    router.handlers.message(`fleet/acme/${device}/${kind}`, Buffer.from(JSON.stringify(body)));
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { router, stats, calls, send };
}

const dropped = (stats: LinkStats) =>
  Object.fromEntries(Object.entries(stats.dropped).filter(([, count]) => count > 0)) as Record<string, number>;

describe('device router', () => {
  it.each([
    ['state', { battery: 50 }, [['state', ACME.name, { battery: 50 }]], {}],
    ['state', { battery: 500 }, [], { bad_message: 1 }],
    [
      'reply',
      { id: ID, status: 'success' },
      [
        ['alive', ACME.name],
        ['reply', ACME.name, ID],
      ],
      {},
    ],
    ['reply', { id: '1b5a3c1e-7f7b-4c8e-9a51-2d7b0d9b6f10', status: 'success' }, 2, { unknown_command: 1 }],
    ['reply', { status: 'success' }, [], { bad_message: 1 }],
    [
      'events',
      { type: 'dfu', id: ID, phase: 'downloading', progress: 5 },
      [
        ['alive', ACME.name],
        ['dfu', ACME.name, 'downloading'],
      ],
      {},
    ],
    [
      'events',
      { type: 'provision', session_id: ID, phase: 'ready' },
      [
        ['alive', ACME.name],
        ['provision', ACME.name, 'ready'],
      ],
      {},
    ],
    ['events', { type: 'provision', phase: 'ready' }, [['alive', ACME.name]], { bad_message: 1 }],
    ['events', { type: 'dfu', id: ID }, [['alive', ACME.name]], { bad_message: 1 }],
    [
      'beacon',
      { ok: true },
      [
        ['alive', ACME.name],
        ['beacon', ACME.name],
      ],
      {},
    ],
    ['beacon', { ok: false }, 2, { bad_message: 1 }],
    ['nonsense', {}, [], { bad_topic: 1 }],
  ] as const)('%s %j goes where it belongs', async (kind, body, calls, drops) => {
    const r = routed();
    await r.send(kind, body);
    if (typeof calls === 'number') expect(r.calls).toHaveLength(calls);
    else expect(r.calls).toEqual(calls);
    expect(dropped(r.stats)).toEqual(drops);
    expect(r.stats.received).toBe(1);
  });

  it.each([
    ['state', 'state', { battery: 1 }, 'unsupported'],
    ['reply', 'reply', { id: ID, status: 'success' }, 'unknown_command'],
    ['dfu', 'events', { type: 'dfu', id: ID, phase: 'accepted', progress: 0 }, 'unknown_command'],
    ['provision', 'events', { type: 'provision', session_id: ID, phase: 'ready' }, 'unsupported'],
    ['beacon', 'beacon', { ok: true }, 'unsupported'],
  ] as const)(
    'a message for an unregistered %s route (on …/%s) is dropped as %s',
    async (route, kind, body, reason) => {
      const r = routed([route]);
      await r.send(kind, body);
      expect(dropped(r.stats)).toEqual({ [reason]: 1 });
    },
  );

  it('drops what it cannot believe before any route sees it', async () => {
    const r = routed();
    await r.send('state', { battery: 1 }, '000000000000');
    r.router.handlers.message(`fleet/other/${ACME.name}/state`, Buffer.from('{}'));
    r.router.handlers.message(`fleet/acme/${ACME.name}/state`, Buffer.from('{'));
    await r.send('state', { state: 'a\u0000b' });
    expect(dropped(r.stats)).toEqual({ unknown_device: 1, wrong_entity: 1, bad_json: 1, bad_text: 1 });
    expect(r.calls).toEqual([['alive', ACME.name]]);
  });

  it('passes presence on and refuses registrations once sealed or twice', () => {
    const r = routed();
    r.router.handlers.presence(ACME.name, true);
    expect(r.calls).toEqual([['presence', ACME.name, true]]);
    expect(() => r.router.register('beacon', () => true)).toThrow(/after the broker started/);
    const fresh = createDeviceRouter({ directory, stats: new LinkStats(), budget: null, onError: () => {} });
    fresh.register('beacon', () => true);
    expect(() => fresh.register('beacon', () => true)).toThrow(/twice/);
  });
});
