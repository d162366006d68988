/**
 * The demo's files, so Provision has something to send: a configuration, a sound and a font at
 * entity level, and a floor map on the first group (fleet §2: files at entity, site and group
 * level; a device gets the union). Contents are small and deterministic; a file whose device path
 * is already there is left as it is, so the demo can run again.
 */
const ENTITY_FILES = [
  { path: 'config/app.json', name: 'app.json', bytes: 2_048 },
  { path: 'sounds/chime.wav', name: 'chime.wav', bytes: 24_000 },
  { path: 'fonts/ui.ttf', name: 'ui.ttf', bytes: 48_000 },
];
const GROUP_FILE = { path: 'maps/floor1.png', name: 'floor1.png', bytes: 64_000 };

async function listPaths(baseUrl: string, token: string, entity: string, query: string): Promise<Set<string>> {
  const res = await fetch(`${baseUrl}/api/v1/tenant/${entity}/files?${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`Listing the demo files answered ${res.status}`);
  const body = (await res.json()) as { files: Array<{ file_device_path: string | null }> };
  return new Set(body.files.map((f) => f.file_device_path ?? ''));
}

async function upload(
  baseUrl: string,
  token: string,
  entity: string,
  target: Record<string, string>,
  f: { path: string; name: string; bytes: number },
): Promise<void> {
  const form = new FormData();
  for (const [k, v] of Object.entries(target)) form.append(k, v);
  form.append('file_device_path', f.path);
  form.append('file', new Blob([new Uint8Array(f.bytes).fill(f.name.length)]), f.name);
  const res = await fetch(`${baseUrl}/api/v1/tenant/${entity}/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  await res.body?.cancel();
  if (res.status !== 201) throw new Error(`Uploading the demo file ${f.name} answered ${res.status}`);
}

/** Entity-level files and a group-level one on the entity's first group (by name). */
export async function provisionDemoFiles(baseUrl: string, token: string, entity: string): Promise<void> {
  const entityTarget = { level: 'entity', entity_id: entity };
  const have = await listPaths(baseUrl, token, entity, new URLSearchParams(entityTarget).toString());
  for (const f of ENTITY_FILES) if (!have.has(f.path)) await upload(baseUrl, token, entity, entityTarget, f);
  const res = await fetch(`${baseUrl}/api/v1/tenant/${entity}/dispenser?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const first = ((await res.json()) as { data?: Array<{ id: string }> }).data?.[0];
  if (!first) return;
  const groupTarget = { level: 'group', group_id: first.id };
  const inGroup = await listPaths(baseUrl, token, entity, new URLSearchParams(groupTarget).toString());
  if (!inGroup.has(GROUP_FILE.path)) await upload(baseUrl, token, entity, groupTarget, GROUP_FILE);
}
