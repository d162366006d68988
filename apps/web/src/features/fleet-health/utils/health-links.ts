/**
 * Where a figure of the fleet health screen leads: the device list filtered to exactly the
 * devices it counts, by the list's URL contract (`battery`, `status`, `fw_version` with `type`,
 * `seen`). The superadmin's list is /sdevices, narrowed to the entity the screen is filtered to.
 */
export function deviceListHref(landlord: boolean, entity: string | undefined, params: Record<string, string>): string {
  const query = new URLSearchParams();
  if (landlord && entity) query.set('entity', entity);
  for (const [key, value] of Object.entries(params)) query.set(key, value);
  const search = query.toString();
  return `${landlord ? '/sdevices' : '/device'}${search ? `?${search}` : ''}`;
}

/** The list's `seen=` value of each presence figure (total has none: every device). */
export const SEEN_OF = { online: 'online', unresponsive: 'unresponsive', never_seen: 'never' } as const;

/** "1 device", "3 devices". */
export const devicesText = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'device' : 'devices'}`;

/** What a command's or session's outcome is called on screen: `timed_out` → "timed out". */
export const outcomeText = (outcome: string) => outcome.replace(/^provision_/, '').replaceAll('_', ' ');
