import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import type { Deps } from '../../domain/deps.ts';
import { findDownload } from '../../domain/files/find-download.ts';
import { HttpError } from '../../lib/http-error.ts';
import { parseRange } from '../../storage/byte-range.ts';

const errors = { 400: ErrorInfoSchema, 403: ErrorInfoSchema, 404: ErrorInfoSchema, 416: ErrorInfoSchema };

/**
 * Downloads by signed, expiring link (devices fetching firmware and files): no bearer token, the
 * signature is the permission. Range requests answer 206, so a device on a flaky link resumes.
 */
export async function downloadRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/download/:kind/:id',
    {
      // The signature is the permission: devices download without a bearer token.
      config: { public: true },
      schema: {
        tags: ['files'],
        summary: 'Download a file or firmware by signed link; supports Range',
        params: z.object({ kind: z.enum(['file', 'firmware']), id: z.string().min(1).max(64) }),
        querystring: z.object({
          expires: z.coerce.number().int().min(0).max(1e11),
          signature: z.string().min(1).max(128),
        }),
        response: errors,
      },
    },
    async (request, reply) => {
      const { kind, id } = request.params;
      const verdict = deps.downloads.verify(kind, id, request.query.expires, request.query.signature);
      if (verdict === 'bad') throw new HttpError(403, 'Invalid download link', 'The signature does not match');
      if (verdict === 'expired') throw new HttpError(403, 'The download link has expired', 'Ask for a new link');
      const blob = await findDownload(deps.db, kind, id);
      const range = parseRange(request.headers.range, blob.size);
      void reply.header('accept-ranges', 'bytes').header('etag', `"${blob.sha256}"`).type('application/octet-stream');
      if (range === 'unsatisfiable') {
        void reply.header('content-range', `bytes */${blob.size}`);
        throw new HttpError(416, 'Range not satisfiable', `The blob has ${blob.size} bytes`);
      }
      const body = await deps.blobs.read(blob.key, range ?? undefined);
      // Streams skip the response serializer; the schema above documents the error answers.
      if (!range) return reply.header('content-length', blob.size).send(body as never);
      return reply
        .code(206 as never)
        .header('content-range', `bytes ${range.start}-${range.end}/${blob.size}`)
        .header('content-length', range.end - range.start + 1)
        .send(body as never);
    },
  );
}
