import { createHash } from 'node:crypto';

/**
 * The demo's firmware: an image for each device type at entity level, one release ahead of the
 * simulated fleet (profile.ts), so Update Firmware has something to install. Images are
 * deterministic bytes, the same every run; an image already uploaded (409) is left as it is.
 */
export const DEMO_FIRMWARE_VERSION = '1.6.0';
const IMAGE_BYTES = 96 * 1024;

/** A repeatable image: SHA-256 blocks of the type and version, chained. */
export function demoImage(deviceType: string, version: string, bytes = IMAGE_BYTES): Buffer {
  const blocks: Buffer[] = [];
  let seed = Buffer.from(`${deviceType}/${version}`);
  for (let n = 0; n < bytes; n += 32) {
    seed = createHash('sha256').update(seed).digest();
    blocks.push(seed);
  }
  return Buffer.concat(blocks).subarray(0, bytes);
}

/** Uploads one firmware (multipart); answers the HTTP status (201 new, 409 already there). */
export async function uploadDemoFirmware(
  baseUrl: string,
  token: string,
  entity: string,
  f: { level: 'entity' | 'site' | 'group'; target: string; version: string; device_type: 'CC1' | 'CC2' },
): Promise<number> {
  const form = new FormData();
  form.append('level', f.level);
  form.append(`${f.level}_id`, f.target);
  form.append('version', f.version);
  form.append('device_type', f.device_type);
  form.append('description', `Demo release ${f.version} for ${f.device_type}`);
  form.append(
    'firmware_file',
    new Blob([new Uint8Array(demoImage(f.device_type, f.version))]),
    `fw-${f.device_type.toLowerCase()}-${f.version}.bin`,
  );
  const res = await fetch(`${baseUrl}/api/v1/tenant/${entity}/firmware`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  await res.body?.cancel();
  return res.status;
}

/** A newer release on the entity's first group (by name): its devices get it instead. */
export const DEMO_GROUP_FIRMWARE_VERSION = '1.7.0';

/** Entity-level firmware for CC1 and CC2, and a newer CC1 image on the first group. */
export async function provisionDemoFirmware(baseUrl: string, token: string, entity: string): Promise<void> {
  for (const device_type of ['CC1', 'CC2'] as const) {
    const status = await uploadDemoFirmware(baseUrl, token, entity, {
      level: 'entity',
      target: entity,
      version: DEMO_FIRMWARE_VERSION,
      device_type,
    });
    if (status !== 201 && status !== 409) throw new Error(`Uploading the demo firmware answered ${status}`);
  }
  const res = await fetch(`${baseUrl}/api/v1/tenant/${entity}/dispenser?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const first = ((await res.json()) as { data?: Array<{ id: string }> }).data?.[0];
  if (!first) return;
  const status = await uploadDemoFirmware(baseUrl, token, entity, {
    level: 'group',
    target: first.id,
    version: DEMO_GROUP_FIRMWARE_VERSION,
    device_type: 'CC1',
  });
  if (status !== 201 && status !== 409) throw new Error(`Uploading the demo group firmware answered ${status}`);
}
