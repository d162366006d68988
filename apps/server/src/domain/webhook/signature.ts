import { createHmac, randomBytes } from 'node:crypto';

/** A new webhook secret: 32 random bytes, hex, prefixed so it is recognisable in a config file. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('hex')}`;

/**
 * The `Fleet-Signature` header of a delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of t + "." + body
 * under the webhook's secret>` (docs/webhooks.md shows a receiver checking it).
 */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
