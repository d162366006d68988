import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: any;
  /** Whether the signature checked out, by the receiver of docs/webhooks.md. */
  verified: boolean;
}

/**
 * The receiver of docs/webhooks.md, written from the docs alone: split `Fleet-Signature` into
 * `t` and `v1`, HMAC-SHA256 `${t}.${rawBody}` with the secret, compare in constant time, and refuse
 * a timestamp more than 5 minutes from now.
 */
export function verifyFleetSignature(secret: string, header: string | undefined, rawBody: string, nowS: number) {
  const parts = Object.fromEntries((header ?? '').split(',').map((kv) => kv.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(nowS - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A loopback HTTP receiver answering `answer()` (a status) and keeping what it got. */
export async function startReceiver(answer: () => number = () => 200) {
  const received: Received[] = [];
  let secret = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = req.headers['fleet-signature'] as string | undefined;
      const verified = verifyFleetSignature(secret, header, body, Math.floor(Date.now() / 1000));
      received.push({ headers: req.headers, body, event: JSON.parse(body), verified });
      res.writeHead(answer()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** The secret the receiver checks signatures with (from the create answer). */
    useSecret: (value: string) => (secret = value),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
