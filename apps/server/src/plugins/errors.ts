import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { clientErrorOf } from '../lib/db-errors.ts';
import { HttpError } from '../lib/http-error.ts';

interface ErrorBody {
  code: number;
  userMessage: string;
  developerMessage: string;
  details?: Record<string, string[]>;
}

/** Sends the `errorInfo` envelope every API error answers with. */
export function sendError(reply: FastifyReply, body: ErrorBody): FastifyReply {
  return reply.code(body.code).type('application/json; charset=utf-8').send({ errorInfo: body });
}

/** Field path (`name`, `document.email`) → messages; the request part is kept only for non-body parts. */
function fieldDetails(error: FastifyError & { validation: { instancePath: string; message?: string }[] }) {
  const details: Record<string, string[]> = {};
  const part = error.validationContext && error.validationContext !== 'body' ? `${error.validationContext}.` : '';
  for (const v of error.validation) {
    const key = part + (v.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_');
    (details[key] ??= []).push(v.message ?? 'Invalid value');
  }
  return details;
}

/**
 * A whole errorInfo answer as raw HTTP, for a socket Fastify has no reply for (or no longer
 * controls): the answer closes the connection.
 */
export function rawErrorResponse(body: ErrorBody): string {
  const json = JSON.stringify({ errorInfo: body });
  return (
    `HTTP/1.1 ${body.code} ${STATUS_CODES[body.code]}\r\nConnection: close\r\n` +
    'Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n' +
    `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`
  );
}

/** What Node's HTTP parser refused before Fastify saw a request, as the envelope says it. */
function clientErrorBody(code: string | undefined): ErrorBody {
  if (code === 'HPE_HEADER_OVERFLOW') {
    const developerMessage = `The request line and headers exceed ${maxHeaderSize} bytes`;
    return { code: 431, userMessage: 'The request headers are too large', developerMessage };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const developerMessage = 'The request was not complete in time';
    return { code: 408, userMessage: 'The request took too long', developerMessage };
  }
  return {
    code: 400,
    userMessage: 'Invalid request',
    developerMessage: `Malformed HTTP request (${code ?? 'unknown'})`,
  };
}

/**
 * Fastify's `clientErrorHandler`: a malformed request (a long URL or headers, a broken chunked
 * body, a request too slow to arrive) is answered in the envelope too, then its connection ends.
 * Nothing is written once an answer to the same socket has begun (Node's own rule).
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A reset connection is already gone: there is no one to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(rawErrorResponse(clientErrorBody(err.code)));
  this.log.debug({ err }, 'malformed request refused');
  socket.destroy();
}

// Fastify's own 4xx codes, answered with a message a person can act on.
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid content length',
};

/** One central error handler: every failure becomes `{errorInfo}`; nothing a client sends yields a 500. */
export const errorsPlugin = fp(async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) void reply.headers(error.headers);
      const body: ErrorBody = {
        code: error.statusCode,
        userMessage: error.userMessage,
        developerMessage: error.developerMessage,
      };
      if (error.details) body.details = error.details;
      return sendError(reply, body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendError(reply, {
        code: 400,
        userMessage: 'Invalid input',
        developerMessage: `The request ${error.validationContext ?? 'input'} does not match the schema`,
        details: fieldDetails(error),
      });
    }
    const refused = clientErrorOf(error);
    if (refused) {
      // A rule some route should have checked itself: answered honestly, and logged to be fixed.
      request.log.warn({ err: error }, 'database refused a request the route did not check');
      return sendError(reply, {
        code: refused.status,
        userMessage: refused.userMessage,
        developerMessage: 'The database refused the values',
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
      // 415 and other client codes outside the catalogue are answered as plain bad input.
      const code = [400, 401, 403, 404, 409, 413, 429].includes(status) ? status : 400;
      return sendError(reply, { code, userMessage: known ?? 'Invalid request', developerMessage: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, {
      code: 500,
      userMessage: 'Something went wrong',
      developerMessage: 'Internal server error',
    });
  });
});
