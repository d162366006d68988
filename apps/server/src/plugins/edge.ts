import { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/http-error.ts';
import { DEPTH_MESSAGE, findUnstorable, unstorableText } from '../lib/unstorable.ts';
import { rawErrorResponse } from './errors.ts';

interface EdgeOptions {
  /** A request body may pause this long between bytes. */
  bodyIdleTimeoutMs: number;
  /** A request body must have arrived this long after its headers. */
  bodyTimeoutMs: number;
}

// `%00` in any case; a literal NUL never gets past Node's HTTP parser.
const ENCODED_NUL = /%00/i;

const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/**
 * What every request meets before routing decides anything: a URL holding U+0000 is refused, and a
 * request body must keep arriving (no pause over the idle limit) and be complete by the deadline,
 * so a slow client cannot hold a connection open, nor can one answered before its body arrived.
 * Bodies are checked for U+0000 by the JSON parser (see `app.ts`), after authentication.
 */
export const edgePlugin = fp(async function edgePlugin(app: FastifyInstance, opts: EdgeOptions) {
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const at = request.url.search(ENCODED_NUL);
    if (at >= 0) {
      const query = request.url.indexOf('?');
      return done(unstorableText(query >= 0 && at > query ? 'querystring' : 'path'));
    }
    // Injected requests (tests, internal calls) have no socket to hold open.
    if (hasBody(request) && !request.raw.complete && request.raw.socket instanceof Socket)
      guardBody(request, reply, opts);
    done();
  });
  // An answer given before its request's body arrived (a 401, a 413) ends the connection: else
  // Node keeps reading that body, however slowly it trickles, to reuse the connection.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (hasBody(request) && request.raw.complete === false) void reply.header('connection', 'close');
    done(null, payload);
  });
});

/** Cuts the connection with a 408 when the body stalls or runs past its deadline. */
function guardBody(request: FastifyRequest, reply: FastifyReply, opts: EdgeOptions) {
  const raw = request.raw;
  const socket = raw.socket;
  const cut = () => {
    if (raw.complete) return;
    request.log.info({ url: request.url }, 'request body too slow: connection closed');
    if (!reply.raw.headersSent && socket.writable) {
      const developerMessage = 'The request body did not arrive in time';
      socket.end(rawErrorResponse({ code: 408, userMessage: 'The request took too long', developerMessage }));
    }
    socket.destroySoon();
    setTimeout(() => socket.destroy(), 1000).unref();
  };
  // The socket's idle timer is refreshed by every chunk the HTTP parser reads; while the request
  // has a 'timeout' listener, Node leaves the socket to it.
  raw.setTimeout(opts.bodyIdleTimeoutMs, cut);
  const deadline = setTimeout(cut, opts.bodyTimeoutMs);
  const release = () => {
    clearTimeout(deadline);
    raw.removeListener('timeout', cut);
    // Keep-alive sets its own timer once the answer is sent.
    socket.setTimeout(0);
  };
  raw.once('end', release);
  raw.once('close', release);
}

/** Throws the 400 when a parsed JSON body holds text the database cannot store, or nests too deeply. */
export function assertStorableBody(body: unknown): void {
  const found = findUnstorable(body);
  if (!found) return;
  const where = found.path || 'body';
  if (found.reason !== 'depth') throw unstorableText(where, found.reason);
  throw new HttpError(400, DEPTH_MESSAGE, `${where} is nested deeper than the API accepts`, {
    [where]: [DEPTH_MESSAGE],
  });
}
