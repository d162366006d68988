import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DeviceCreateRequestSchema,
  DeviceExportQuerySchema,
  DeviceFacetsSchema,
  DeviceListQuerySchema,
  DeviceSchema,
  DeviceUpdateRequestSchema,
  DeviceWithCredentialsSchema,
  MqttCredentialsSchema,
} from '@fleet/shared/schemas/device';
import { StatusSchema, listOf, statusWith } from '@fleet/shared/schemas/list';
import { PartPool } from '../../lib/part-pool.ts';
import type { Deps } from '../../domain/deps.ts';
import { deleteAllDevices, deleteDevice } from '../../domain/device/delete-device.ts';
import { findDeviceInScope, presentDevice } from '../../domain/device/device-scope.ts';
import { deviceExportName, exportDevices } from '../../domain/device/export-devices.ts';
import { deviceFacets, listDevices, streamDevices } from '../../domain/device/list-devices.ts';
import { regenerateCredentials, updateDevice } from '../../domain/device/update-device.ts';
import { registerDevice } from '../../domain/device/register-device.ts';
import { auditContext } from '../audit-context.ts';
import { partsBody } from '../parts-body.ts';
import { ERROR_RESPONSES, SCOPES, pathName, scopeOf } from '../scope.ts';

const errors = ERROR_RESPONSES;

/** The device registry, on the landlord's plain path (every entity) and the entity-scoped path. */
export async function deviceRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['devices'];
  const security = [{ bearer: [] }];

  for (const { prefix, params } of SCOPES) {
    const Scoped = z.object(params);
    const Named = Scoped.extend({ name: pathName() });
    const where = prefix ? 'of the entity' : 'of every entity (superadmins)';

    r.get(
      `${prefix}/device`,
      {
        schema: {
          tags,
          security,
          summary: `List devices ${where}: filtered, sorted and paged by the database; limit 0 streams all`,
          params: Scoped,
          querystring: DeviceListQuerySchema,
          response: { 200: listOf(DeviceSchema), ...errors },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(request, 'Entity');
        if (request.query.limit > 0) return listDevices(deps.db, scope, request.query);
        // Streamed as it is read (streams skip the schema serializer; rows are presented one by one).
        const body = Readable.from(streamDevices(deps.db, scope, request.query));
        return reply.type('application/json; charset=utf-8').send(body as never);
      },
    );

    r.get(
      `${prefix}/device/facets`,
      {
        schema: {
          tags,
          security,
          summary: `Filter values ${where}`,
          params: Scoped,
          response: { 200: DeviceFacetsSchema, ...errors },
        },
      },
      async (request) => deviceFacets(deps.db, scopeOf(request, 'Entity')),
    );

    r.get(
      `${prefix}/device/export`,
      {
        schema: {
          tags,
          security,
          summary: `Export the devices ${where} with the list's filters and sort, whole, as CSV (streamed)`,
          params: Scoped,
          querystring: DeviceExportQuerySchema,
          response: { 200: z.string().describe('CSV (text/csv), streamed'), ...errors },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(request, 'Entity');
        const name = deviceExportName(scope ?? request.query.entity ?? 'all');
        // Streams skip the schema serializer: the body is written part by part as it is read, one
        // batch read ahead, each part's memory reused once the socket has written it (partsBody).
        const parts = new PartPool();
        const body = partsBody(exportDevices(deps.db, scope, request.query, { parts }), reply.raw, parts);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('cache-control', 'no-store')
          .send(body as never);
      },
    );

    r.post(
      `${prefix}/device`,
      {
        schema: {
          tags,
          security,
          summary: `Register a device ${where}; answers its MQTT credentials once`,
          params: Scoped,
          body: DeviceCreateRequestSchema,
          response: { 201: statusWith(DeviceWithCredentialsSchema), ...errors },
        },
      },
      async (request, reply) => {
        const data = await registerDevice(
          deps,
          auditContext(request, deps),
          request.auth,
          scopeOf(request, 'Entity'),
          request.body.document,
        );
        return reply.code(201).send({ status: 'Device created', data });
      },
    );

    r.delete(
      `${prefix}/device/all`,
      {
        schema: {
          tags,
          security,
          summary: `Delete every device ${where}`,
          params: Scoped,
          response: { 200: StatusSchema.extend({ deleted: z.number() }), ...errors },
        },
      },
      async (request) => {
        const scope = scopeOf(request, 'Entity');
        const names = await deleteAllDevices(deps.db, auditContext(request, deps), request.auth, scope);
        await deps.devices.access.revoked(names, scope === null ? { all: true } : { entity: scope });
        return { status: 'All devices deleted', deleted: names.length };
      },
    );

    r.get(
      `${prefix}/device/:name`,
      {
        schema: {
          tags,
          security,
          summary: `A device ${where}`,
          params: Named,
          response: { 200: z.object({ data: DeviceSchema }), ...errors },
        },
      },
      async (request) => ({
        data: presentDevice(await findDeviceInScope(deps.db, request.params.name, scopeOf(request, 'Device'))),
      }),
    );

    r.put(
      `${prefix}/device/:name`,
      {
        schema: {
          tags,
          security,
          summary: `Change a device ${where}`,
          params: Named,
          body: DeviceUpdateRequestSchema,
          response: { 200: statusWith(DeviceSchema), ...errors },
        },
      },
      async (request) => {
        const scope = scopeOf(request, 'Device');
        const data = await updateDevice(
          deps.db,
          auditContext(request, deps),
          request.auth,
          scope,
          request.params.name,
          request.body.operator.$set,
        );
        // A renamed device is a new MQTT username: the old one goes, new credentials must be issued.
        if (data.name !== request.params.name) await deps.devices.access.revoked([request.params.name]);
        return { status: 'Device saved', data };
      },
    );

    r.delete(
      `${prefix}/device/:name`,
      {
        schema: {
          tags,
          security,
          summary: `Delete a device ${where}`,
          params: Named,
          response: { 200: StatusSchema, ...errors },
        },
      },
      async (request) => {
        await deleteDevice(
          deps.db,
          auditContext(request, deps),
          request.auth,
          scopeOf(request, 'Device'),
          request.params.name,
        );
        await deps.devices.access.revoked([request.params.name]);
        return { status: 'Device deleted' };
      },
    );

    r.post(
      `${prefix}/device/:name/credentials`,
      {
        schema: {
          tags,
          security,
          summary: 'Replace the MQTT secret; answers the new credentials once',
          params: Named,
          response: { 200: z.object({ data: MqttCredentialsSchema }), ...errors },
        },
      },
      async (request) => {
        const scope = scopeOf(request, 'Device');
        const { entity, ...data } = await regenerateCredentials(
          deps.db,
          auditContext(request, deps),
          request.auth,
          scope,
          request.params.name,
        );
        // The old secret stops working now: sessions that used it are ended.
        await deps.devices.access.issued([{ name: data.username, entity, password: data.password }]);
        return { data };
      },
    );
  }
}
