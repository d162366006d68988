import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CommandRequestSchema } from '@fleet/shared/schemas/command';
import {
  SavedViewCreateSchema,
  SavedViewSchema,
  SavedViewUpdateSchema,
  SelectionRequestSchema,
  SelectionSchema,
} from '@fleet/shared/schemas/device-view';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { StatusSchema, listOf, statusWith } from '@fleet/shared/schemas/list';
import type { Deps } from '../../domain/deps.ts';
import { deleteSelection } from '../../domain/device-selection/delete-selection.ts';
import { selectDevices } from '../../domain/device-selection/select-devices.ts';
import { selectionProgress } from '../../domain/device-selection/selection-progress.ts';
import { sendToSelection } from '../../domain/device-selection/send-to-selection.ts';
import { createView } from '../../domain/device-view/create-view.ts';
import { deleteView } from '../../domain/device-view/delete-view.ts';
import { listViews } from '../../domain/device-view/list-views.ts';
import { updateView } from '../../domain/device-view/update-view.ts';
import { auditContext } from '../audit-context.ts';
import { selectionActionRoutes } from './selection-actions.ts';
import { ERROR_RESPONSES, SCOPES, scopeOf } from '../scope.ts';

const errors = { ...ERROR_RESPONSES, 503: ErrorInfoSchema };

/**
 * Saved views of the device list and "select all matching" (issue 27), on the landlord's plain
 * path (its own list, `/sdevices`) and the entity-scoped one. Paths beside `device/…`, so no
 * device name is shadowed.
 */
export async function deviceViewRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const security = [{ bearer: [] }];

  for (const { prefix, params } of SCOPES) {
    const Scoped = z.object(params);
    const ById = Scoped.extend({ id: z.uuid() });
    const where = prefix ? 'of the entity' : 'of the landlord’s own list';
    let tags = ['device views'];

    r.get(
      `${prefix}/device-view`,
      {
        schema: {
          tags,
          security,
          summary: `Saved views ${where}: the caller's own and the shared ones`,
          params: Scoped,
          response: { 200: listOf(SavedViewSchema), ...errors },
        },
      },
      async (request) => listViews(deps.db, scopeOf(request, 'View'), request.auth),
    );

    r.post(
      `${prefix}/device-view`,
      {
        schema: {
          tags,
          security,
          summary: `Save a named filter and sort ${where}, private or shared`,
          params: Scoped,
          body: SavedViewCreateSchema,
          response: { 201: statusWith(SavedViewSchema), ...errors },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(request, 'View');
        const data = await createView(deps.db, auditContext(request, deps), request.auth, scope, request.body);
        return reply.code(201).send({ status: 'View saved', data });
      },
    );

    r.put(
      `${prefix}/device-view/:id`,
      {
        schema: {
          tags,
          security,
          summary: `Change one of the caller's views ${where}`,
          params: ById,
          body: SavedViewUpdateSchema,
          response: { 200: statusWith(SavedViewSchema), ...errors },
        },
      },
      async (request) => {
        const scope = scopeOf(request, 'View');
        const ctx = auditContext(request, deps);
        const data = await updateView(deps.db, ctx, request.auth, scope, request.params.id, request.body);
        return { status: 'View saved', data };
      },
    );

    r.delete(
      `${prefix}/device-view/:id`,
      {
        schema: {
          tags,
          security,
          summary: `Delete one of the caller's views ${where}`,
          params: ById,
          response: { 200: StatusSchema, ...errors },
        },
      },
      async (request) => {
        const scope = scopeOf(request, 'View');
        await deleteView(deps.db, auditContext(request, deps), request.auth, scope, request.params.id);
        return { status: 'View deleted' };
      },
    );

    tags = ['device selections'];
    r.post(
      `${prefix}/device-selection`,
      {
        schema: {
          tags,
          security,
          summary: `Dry run of "select all matching" ${where}: the filter resolved to a fixed set, counted`,
          params: Scoped,
          body: SelectionRequestSchema,
          response: { 201: z.object({ data: SelectionSchema }), ...errors },
        },
      },
      async (request, reply) => {
        const data = await selectDevices(deps.db, scopeOf(request, 'Device'), request.auth, request.body.query);
        return reply.code(201).send({ data });
      },
    );

    r.get(
      `${prefix}/device-selection/:id`,
      {
        schema: {
          tags,
          security,
          summary: `A selection ${where} and its action's progress`,
          params: ById,
          response: { 200: z.object({ data: SelectionSchema }), ...errors },
        },
      },
      async (request) => ({
        data: await selectionProgress(deps.db, scopeOf(request, 'Device'), request.auth, request.params.id),
      }),
    );

    r.post(
      `${prefix}/device-selection/:id/command`,
      {
        schema: {
          tags,
          security,
          summary: `Send a command to exactly the selection's devices ${where}, in batches; answers at once`,
          params: ById,
          body: CommandRequestSchema,
          response: { 202: z.object({ data: SelectionSchema }), ...errors },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(request, 'Device');
        const ctx = auditContext(request, deps);
        const data = await sendToSelection(
          deps.db,
          app.selections,
          ctx,
          request.auth,
          scope,
          request.params.id,
          request.body,
        );
        return reply.code(202).send({ data });
      },
    );

    r.post(
      `${prefix}/device-selection/:id/delete`,
      {
        schema: {
          tags,
          security,
          summary: `Delete exactly the selection's devices ${where}, in batches; answers at once`,
          params: ById,
          response: { 202: z.object({ data: SelectionSchema }), ...errors },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(request, 'Device');
        const ctx = auditContext(request, deps);
        const data = await deleteSelection(deps.db, app.selections, ctx, request.auth, scope, request.params.id);
        return reply.code(202).send({ data });
      },
    );
  }
  await selectionActionRoutes(app, deps);
}
