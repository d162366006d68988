import { randomBytes } from 'node:crypto';
import { hashToken } from '../../lib/tokens.ts';

/**
 * A new MQTT secret for a device: 192 random bits, so a fast SHA-256 is a safe stored form and a
 * reconnect storm costs no password hashing.
 */
export function newDeviceSecret(): { password: string; hash: string } {
  const password = randomBytes(24).toString('base64url');
  return { password, hash: hashToken(password) };
}
