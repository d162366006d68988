import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header a request's id comes in (from a trusted balancer) and goes back out in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id may be: a UUID, a balancer's hex or base64url id. Nothing else is logged as given. */
const INCOMING = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * Fastify's `genReqId`: the id every log line of the request carries (`reqId`), and the audit
 * entries and the command's settle log after it (docs/metrics.md "Request ids"). A fresh UUID,
 * unique across instances; behind a trusted proxy (TRUST_PROXY) the balancer's `X-Request-Id`
 * when it looks like an id, so its access log and ours share it.
 */
export function requestIdGenerator(trustProxy: boolean): (req: IncomingMessage) => string {
  return (req) => {
    const given = req.headers[REQUEST_ID_HEADER];
    return trustProxy && typeof given === 'string' && INCOMING.test(given) ? given : randomUUID();
  };
}
