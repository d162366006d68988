import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuditExportQuerySchema, AuditListQuerySchema, AuditPageSchema } from '@fleet/shared/schemas/audit';
import { assertMayReadAudit } from '../../domain/audit/audit-policy.ts';
import { exportAudit, exportName } from '../../domain/audit/export-audit.ts';
import { listAudit, type AuditScope } from '../../domain/audit/list-audit.ts';
import { PartPool } from '../../lib/part-pool.ts';
import type { Deps } from '../../domain/deps.ts';
import { assertEntityAccess, assertLandlord } from '../../plugins/auth.ts';
import { partsBody } from '../parts-body.ts';
import { ERROR_RESPONSES, pathName } from '../scope.ts';

const errors = ERROR_RESPONSES;
const TenantList = AuditListQuerySchema.omit({ entity: true });
const TenantExport = AuditExportQuerySchema.omit({ entity: true });
const exportBody = z.string().describe('CSV (text/csv) or a JSON array of entries (application/json), streamed');

/**
 * The audit log, read only: no route changes or deletes an entry. An entity's under
 * `tenant/{entity}/audit` (its admins with all access), every entity's under `audit`
 * (superadmins, with an `entity` filter).
 */
export async function auditRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['audit'];
  const security = [{ bearer: [] }];

  const send = (reply: FastifyReply, scope: AuditScope, q: z.infer<typeof AuditExportQuerySchema>) => {
    const { format, ...filter } = q;
    const name = exportName(scope ?? filter.entity ?? 'all', format);
    const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
    // Streams skip the schema serializer: the body is written part by part as it is read, each
    // part's memory reused once the socket has written it (partsBody), as the device export's.
    const parts = new PartPool();
    const body = partsBody(exportAudit(deps.db, scope, filter, format, { parts }), reply.raw, parts);
    return reply
      .type(type)
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(body as never);
  };

  r.get(
    '/tenant/:entity/audit',
    {
      schema: {
        tags,
        security,
        summary: "The entity's audit log, newest first, filtered and paged",
        params: z.object({ entity: pathName() }),
        querystring: TenantList,
        response: { 200: AuditPageSchema, ...errors },
      },
    },
    async (request) => {
      assertEntityAccess(request.auth, request.params.entity);
      assertMayReadAudit(request.auth);
      return listAudit(deps.db, request.params.entity, request.query);
    },
  );

  r.get(
    '/tenant/:entity/audit/export',
    {
      schema: {
        tags,
        security,
        summary: "The entity's audit log with the same filters, whole, as CSV or JSON",
        params: z.object({ entity: pathName() }),
        querystring: TenantExport,
        response: { 200: exportBody, ...errors },
      },
    },
    async (request, reply) => {
      assertEntityAccess(request.auth, request.params.entity);
      assertMayReadAudit(request.auth);
      return send(reply, request.params.entity, request.query);
    },
  );

  r.get(
    '/audit',
    {
      schema: {
        tags,
        security,
        summary: "Every entity's audit log (superadmins); `entity` narrows it, `landlord` to landlord-level entries",
        querystring: AuditListQuerySchema,
        response: { 200: AuditPageSchema, ...errors },
      },
    },
    async (request) => {
      assertLandlord(request.auth);
      return listAudit(deps.db, null, request.query);
    },
  );

  r.get(
    '/audit/export',
    {
      schema: {
        tags,
        security,
        summary: 'Every entity’s audit log with the same filters, whole, as CSV or JSON (superadmins)',
        querystring: AuditExportQuerySchema,
        response: { 200: exportBody, ...errors },
      },
    },
    async (request, reply) => {
      assertLandlord(request.auth);
      return send(reply, null, request.query);
    },
  );
}
