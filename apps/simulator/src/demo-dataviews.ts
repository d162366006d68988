/**
 * The demo's dataviews: three laid-out views of the demo entity, owned by its admin, so the
 * dataview list, the landlord list and the builder have something to show. Idempotent (409 = kept).
 */
type Item = { i: string; type: string; x: number; y: number; w: number; h: number; title: string };

const item = (i: string, type: string, x: number, y: number, w: number, h: number, title: string): Item => ({
  i,
  type,
  x,
  y,
  w,
  h,
  title,
});

export const DEMO_DATAVIEWS: Array<{ name: string; description: string; version: string; items: Item[] }> = [
  {
    name: 'welcome_kiosk',
    description: 'Welcome screen of the lobby kiosk',
    version: '1.0',
    items: [
      item('title', 'text', 0, 0, 3, 1, 'Welcome'),
      item('logo', 'image', 0, 1, 1, 2, 'Logo'),
      item('visits', 'metric', 1, 1, 2, 1, 'Visits today'),
      item('start', 'button', 1, 2, 2, 1, 'Start'),
    ],
  },
  {
    name: 'medication_panel',
    description: 'Medication reminders per room',
    version: '2.1',
    items: [
      item('room', 'text', 0, 0, 2, 1, 'Room'),
      item('next', 'metric', 2, 0, 1, 1, 'Next dose'),
      item('history', 'chart', 0, 1, 3, 2, 'Doses this week'),
      item('confirm', 'button', 0, 3, 3, 1, 'Confirm dose'),
    ],
  },
  {
    name: 'battery_board',
    description: 'Battery levels of the fleet',
    version: '1.0',
    items: [item('level', 'chart', 0, 0, 2, 2, 'Battery'), item('low', 'metric', 2, 0, 1, 1, 'Low devices')],
  },
];

type Call = (method: string, path: string, body: unknown, ok: number[]) => Promise<{ status: number }>;

/** Adds the demo dataviews to `entity` with `owner`; those from an earlier run are kept as they are. */
export async function provisionDemoDataviews(call: Call, entity: string, owner: string): Promise<void> {
  for (const { name, description, version, items } of DEMO_DATAVIEWS) {
    const content = { format: 1, name, displayName: description, layout: { items } };
    const document = { name, description, version, owner, authorized_accounts: [owner], content };
    await call('POST', `tenant/${entity}/dataview`, { document }, [201, 409]);
  }
}
