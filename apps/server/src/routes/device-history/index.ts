import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  TelemetryQuerySchema,
  TelemetrySchema,
  TimelineQuerySchema,
  TimelineSchema,
} from '@fleet/shared/schemas/telemetry';
import type { Deps } from '../../domain/deps.ts';
import { findDeviceInScope } from '../../domain/device/device-scope.ts';
import { deviceTimeline } from '../../domain/telemetry/device-timeline.ts';
import { deviceTelemetryHistory } from '../../domain/telemetry/telemetry-history.ts';
import { ERROR_RESPONSES, SCOPES, pathName, scopeOf } from '../scope.ts';

/** A device's telemetry over time and its timeline: read like the device itself (another entity's answers 404). */
export async function deviceHistoryRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['devices'];
  const security = [{ bearer: [] }];

  for (const { prefix, params } of SCOPES) {
    const Named = z.object(params).extend({ name: pathName() });
    const where = prefix ? 'of the entity' : 'of any entity (superadmins)';

    r.get(
      `${prefix}/device/:name/telemetry`,
      {
        schema: {
          tags,
          security,
          summary: `Battery, charging, state and presence of a device ${where} over a time range: raw points or hourly buckets`,
          params: Named,
          querystring: TelemetryQuerySchema,
          response: { 200: z.object({ data: TelemetrySchema }), ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const device = await findDeviceInScope(deps.db, request.params.name, scopeOf(request, 'Device'));
        return { data: await deviceTelemetryHistory(deps.db, device, request.query) };
      },
    );

    r.get(
      `${prefix}/device/:name/timeline`,
      {
        schema: {
          tags,
          security,
          summary: `What happened to a device ${where}, newest first: state, presence, commands, firmware updates, provisioning, allocations, audit entries`,
          params: Named,
          querystring: TimelineQuerySchema,
          response: { 200: TimelineSchema, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const device = await findDeviceInScope(deps.db, request.params.name, scopeOf(request, 'Device'));
        return deviceTimeline(deps.db, device, request.query);
      },
    );
  }
}
