/**
 * The demo's organisation (`npm run demo`): two sites, three kiosks and four groups, with every
 * demo device put in a group, so the Sites, Kiosks and Groups screens and the device list's Groups
 * column show real data. Idempotent: what exists is kept (409), and putting a device in the group
 * it is already in changes nothing.
 */
type Send = (method: string, path: string, body: unknown, ok?: number[]) => Promise<unknown>;

export const DEMO_SITES = [
  {
    name: 'Berlin_HQ',
    description: 'Head office',
    address: { street: 'Unter den Linden', number: '77', postalcode: '10117', city: 'Berlin', country: 'Germany' },
    gps_coordinates: ['52.516275', '13.377704'],
    globalinfo: { welcome: 'Willkommen' },
  },
  {
    name: 'Munich_Lab',
    description: 'Research lab',
    address: { street: 'Marienplatz', number: '8', postalcode: '80331', city: 'Munich', country: 'Germany' },
    gps_coordinates: ['48.137154', '11.576124'],
  },
];

export const DEMO_KIOSKS = [
  { name: 'Berlin_Lobby', description: 'Front desk', location: { site: 'Berlin_HQ' } },
  { name: 'Berlin_Ward3', description: 'Third floor ward', location: { site: 'Berlin_HQ' } },
  { name: 'Munich_Entrance', description: 'Main entrance', location: { site: 'Munich_Lab' } },
];

/**
 * The first four hold the 50 demo devices; Lobby_Returns starts empty, so a device allocated in
 * the demo (which leaves its dispenser) can be returned to another dispenser with room.
 */
export const DEMO_GROUPS = [
  { name: 'Lobby_Left', capacity: 12, kiosk: 'Berlin_Lobby', location: { site: 'Berlin_HQ' } },
  { name: 'Lobby_Right', capacity: 12, kiosk: 'Berlin_Lobby', location: { site: 'Berlin_HQ' } },
  { name: 'Ward_3', capacity: 10, kiosk: 'Berlin_Ward3', location: { site: 'Berlin_HQ' } },
  { name: 'Munich_Main', capacity: 16, kiosk: 'Munich_Entrance', location: { site: 'Munich_Lab' } },
  { name: 'Lobby_Returns', capacity: 6, kiosk: 'Berlin_Lobby', location: { site: 'Berlin_HQ' } },
];

/** Creates the sites, kiosks and groups of `entity` and fills the groups with `devices`, in order. */
export async function provisionDemoOrganisation(send: Send, entity: string, devices: readonly string[]) {
  const base = `tenant/${entity}`;
  for (const document of DEMO_SITES) await send('POST', `${base}/site`, { document }, [201, 409]);
  for (const document of DEMO_KIOSKS) await send('POST', `${base}/kiosk`, { document }, [201, 409]);
  for (const document of DEMO_GROUPS) await send('POST', `${base}/dispenser`, { document }, [201, 409]);
  let next = 0;
  for (const group of DEMO_GROUPS) {
    for (const device of devices.slice(next, next + group.capacity)) {
      // 409: an earlier run left the group full with other devices; they stay where they are.
      await send('POST', `${base}/dispenser/${group.name}/put/${device}`, undefined, [200, 409]);
    }
    next += group.capacity;
  }
}
