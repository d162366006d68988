import type { BulkResult, IssuedCredentials } from './bulk-add.ts';

/** One imported device and the MQTT credentials its create answered. */
export interface IssuedDevice {
  name: string;
  credentials: IssuedCredentials;
}

/** The devices an upload added with their credentials, in file order. */
export function issuedDevices(results: readonly BulkResult[] | null): IssuedDevice[] {
  return (results ?? []).flatMap((r) =>
    r.status === 'created' && r.credentials ? [{ name: r.row.name, credentials: r.credentials }] : [],
  );
}

/**
 * A CSV field, quoted when it holds a delimiter, quote or line break. Values are never altered
 * (no formula guard): a password may start with '-' (base64url) and must reach the device intact.
 */
function field(value: string): string {
  return /[",;\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * The credentials file offered once after an upload: what a single Add Device shows (its MQTT
 * username and password), one device a row under a header, CRLF as spreadsheets expect.
 */
export function credentialsCsv(devices: readonly IssuedDevice[]): string {
  const lines = [
    'Device ID,MQTT username,MQTT password',
    ...devices.map((d) => [d.name, d.credentials.username, d.credentials.password].map(field).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** The download's name: the upload's moment, so two uploads' files do not overwrite each other. */
export function credentialsFileName(at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return `device-credentials-${stamp}.csv`;
}
