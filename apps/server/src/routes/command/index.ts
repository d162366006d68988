import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BulkDfuRequestSchema,
  DfuRequestSchema,
  BulkCommandAnswerSchema,
  BulkCommandRequestSchema,
  CommandAnswerSchema,
  CommandListQuerySchema,
  CommandRequestSchema,
  CommandSchema,
  EntityCommandProgressSchema,
  EntityCommandQuerySchema,
} from '@fleet/shared/schemas/command';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { listOf } from '@fleet/shared/schemas/list';
import { listDeviceCommands } from '../../domain/command/list-commands.ts';
import { updateDeviceFirmware, updateDevicesFirmware } from '../../domain/dfu/send-firmware-update.ts';
import type { Deps } from '../../domain/deps.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, SCOPES, pathName, scopeOf } from '../scope.ts';

const errors = { ...ERROR_RESPONSES, 502: ErrorInfoSchema, 503: ErrorInfoSchema, 504: ErrorInfoSchema };

/**
 * Remote commands (core §7 `mqtt/general/…`) and each device's command history. Every signed-in
 * role may send commands to its entity's devices (docs/decisions.md).
 */
export async function commandRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['commands'];
  const security = [{ bearer: [] }];
  const commands = deps.devices.commands;
  const Entity = z.object({ entity: pathName() });

  r.post(
    '/tenant/:entity/mqtt/general/entity',
    {
      schema: {
        tags,
        security,
        summary:
          "Send a command to every device of the entity, once on the entity's command topic: 200 with every outcome after the replies, or with `wait=false` 202 at once with the command's id and counts to follow",
        params: Entity,
        querystring: EntityCommandQuerySchema,
        body: CommandRequestSchema,
        response: { 200: BulkCommandAnswerSchema, 202: EntityCommandProgressSchema, ...errors },
      },
    },
    async (request, reply) => {
      const entity = scopeOf(request, 'Entity')!;
      const audit = auditContext(request, deps);
      if (request.query.wait === 'true') return commands.toEntity(request.auth, entity, request.body, audit);
      return reply.code(202).send(await commands.startToEntity(request.auth, entity, request.body, audit));
    },
  );

  r.get(
    '/tenant/:entity/mqtt/general/entity/:id',
    {
      schema: {
        tags,
        security,
        summary: 'An entity-wide command’s progress: how many devices it went to and how many answered',
        params: Entity.extend({ id: z.uuid() }),
        response: { 200: EntityCommandProgressSchema, ...errors },
      },
    },
    async (request) => commands.entityProgress(scopeOf(request, 'Entity')!, request.params.id),
  );

  r.post(
    '/tenant/:entity/mqtt/general/devices',
    {
      schema: {
        tags,
        security,
        summary: 'Send a command to several devices; answers each one’s outcome',
        params: Entity,
        body: BulkCommandRequestSchema,
        response: { 200: BulkCommandAnswerSchema, ...errors },
      },
    },
    async (request) =>
      commands.toDevices(
        request.auth,
        scopeOf(request, 'Entity')!,
        request.body.devices,
        request.body,
        auditContext(request, deps),
      ),
  );

  r.post(
    '/tenant/:entity/mqtt/general/:name',
    {
      schema: {
        tags,
        security,
        summary:
          'Send a command to one device and wait for its reply: 200 success, 502 the device’s error, 504 no reply in time, 202 held while it sleeps',
        params: Entity.extend({ name: pathName() }),
        body: CommandRequestSchema,
        response: { 200: CommandAnswerSchema, 202: CommandAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await commands.toDevice(
        request.auth,
        scopeOf(request, 'Device')!,
        request.params.name,
        request.body,
        auditContext(request, deps),
      );
      return reply.code(answer.status === 'queued' ? 202 : 200).send(answer);
    },
  );

  /** Where devices download from: PUBLIC_URL, or the origin this request came in on. */
  const base = (request: FastifyRequest) => deps.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;

  r.post(
    '/tenant/:entity/mqtt/dfu/devices',
    {
      schema: {
        tags,
        security,
        summary:
          'Update the firmware of several devices: each gets the newest firmware for its type at its most specific level (group, site, entity), or the one named',
        params: Entity,
        body: BulkDfuRequestSchema,
        response: { 200: BulkCommandAnswerSchema, ...errors },
      },
    },
    async (request) =>
      updateDevicesFirmware(
        deps,
        auditContext(request, deps),
        request.auth,
        scopeOf(request, 'Entity')!,
        request.body.devices,
        {
          ...request.body,
          base: base(request),
        },
      ),
  );

  r.post(
    '/tenant/:entity/mqtt/dfu/:name',
    {
      schema: {
        tags,
        security,
        summary:
          'Update one device’s firmware: 200 started (it succeeds when the device reports the new version), 202 held while it sleeps, 409 no firmware for its type',
        params: Entity.extend({ name: pathName() }),
        body: DfuRequestSchema,
        response: { 200: CommandAnswerSchema, 202: CommandAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await updateDeviceFirmware(
        deps,
        auditContext(request, deps),
        request.auth,
        scopeOf(request, 'Device')!,
        request.params.name,
        { ...request.body, base: base(request) },
      );
      return reply.code(answer.status === 'queued' ? 202 : 200).send(answer);
    },
  );

  for (const { prefix, params } of SCOPES) {
    r.get(
      `${prefix}/device/:name/commands`,
      {
        schema: {
          tags,
          security,
          summary: 'A device’s command history, newest first',
          params: z.object(params).extend({ name: pathName() }),
          querystring: CommandListQuerySchema,
          response: { 200: listOf(CommandSchema), ...errors },
        },
      },
      async (request) =>
        listDeviceCommands(deps.db, request.auth, scopeOf(request, 'Device'), request.params.name, request.query),
    );
  }
}
