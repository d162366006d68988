import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DeviceSchema } from '@fleet/shared/schemas/device';
import { EntityConfigSchema, EntityConfigUpdateRequestSchema } from '@fleet/shared/schemas/entity-config';
import { GroupCreateRequestSchema, GroupSchema, GroupUpdateRequestSchema } from '@fleet/shared/schemas/group';
import { KioskCreateRequestSchema, KioskSchema, KioskUpdateRequestSchema } from '@fleet/shared/schemas/kiosk';
import { statusWith } from '@fleet/shared/schemas/list';
import { SiteCreateRequestSchema, SiteSchema, SiteUpdateRequestSchema } from '@fleet/shared/schemas/site';
import type { Deps } from '../../domain/deps.ts';
import { getEntityConfig, updateEntityConfig } from '../../domain/entity/entity-config.ts';
import { getGroup, listGroups } from '../../domain/group/group-scope.ts';
import { putDevice } from '../../domain/group/put-device.ts';
import { createGroup, updateGroup } from '../../domain/group/save-group.ts';
import { getKiosk, listKiosks } from '../../domain/kiosk/kiosk-scope.ts';
import { createKiosk, updateKiosk } from '../../domain/kiosk/save-kiosk.ts';
import { deleteNamed } from '../../domain/org/delete-named.ts';
import { getSite, listSites } from '../../domain/site/site-scope.ts';
import { createSite, updateSite } from '../../domain/site/save-site.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, pathName, scopeOf } from '../scope.ts';
import { namedCrudRoutes } from './named-crud.ts';

/** The entity's organisation (fleet §7): sites, kiosks, groups (dispensers), put-device, and the entity config. */
export async function orgRoutes(app: FastifyInstance, deps: Deps) {
  const { db } = deps;
  namedCrudRoutes(app, deps, {
    path: 'site',
    what: 'Site',
    tag: 'sites',
    item: SiteSchema,
    create: SiteCreateRequestSchema,
    update: SiteUpdateRequestSchema,
    list: (actor, entity, page) => listSites(db, actor, entity, page),
    get: (actor, entity, name) => getSite(db, actor, entity, name),
    add: (ctx, actor, entity, doc) => createSite(db, ctx, actor, entity, doc),
    save: (ctx, actor, entity, name, set) => updateSite(db, ctx, actor, entity, name, set),
    remove: (ctx, actor, entity, name) => deleteNamed(db, ctx, actor, 'site', entity, name),
  });
  namedCrudRoutes(app, deps, {
    path: 'kiosk',
    what: 'Kiosk',
    tag: 'kiosks',
    item: KioskSchema,
    create: KioskCreateRequestSchema,
    update: KioskUpdateRequestSchema,
    list: (actor, entity, page) => listKiosks(db, actor, entity, page),
    get: (actor, entity, name) => getKiosk(db, actor, entity, name),
    add: (ctx, actor, entity, doc) => createKiosk(db, ctx, actor, entity, doc),
    save: (ctx, actor, entity, name, set) => updateKiosk(db, ctx, actor, entity, name, set),
    remove: (ctx, actor, entity, name) => deleteNamed(db, ctx, actor, 'kiosk', entity, name),
  });
  namedCrudRoutes(app, deps, {
    path: 'dispenser',
    what: 'Group',
    tag: 'groups',
    item: GroupSchema,
    create: GroupCreateRequestSchema,
    update: GroupUpdateRequestSchema,
    list: (actor, entity, page) => listGroups(db, actor, entity, page),
    get: (actor, entity, name) => getGroup(db, actor, entity, name),
    add: (ctx, actor, entity, doc) => createGroup(db, ctx, actor, entity, doc),
    save: (ctx, actor, entity, name, set) => updateGroup(db, ctx, actor, entity, name, set),
    remove: (ctx, actor, entity, name) => deleteNamed(db, ctx, actor, 'group', entity, name),
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const security = [{ bearer: [] }];
  const Scoped = z.object({ entity: pathName() });
  r.post(
    '/tenant/:entity/dispenser/:name/put/:device',
    {
      schema: {
        tags: ['groups'],
        security,
        summary: 'Put a device into the group: its group and last dispenser; a full group refuses (409)',
        params: Scoped.extend({ name: pathName(), device: pathName() }),
        response: { 200: statusWith(DeviceSchema), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { name, device } = request.params;
      const entity = scopeOf(request, 'Group') as string;
      const data = await putDevice(db, auditContext(request, deps), request.auth, entity, name, device);
      return { status: `Device ${device} put in ${name}`, data };
    },
  );

  r.get(
    '/tenant/:entity/config',
    {
      schema: {
        tags: ['entities'],
        security,
        summary: 'The entity config',
        params: Scoped,
        response: { 200: z.object({ data: EntityConfigSchema }), ...ERROR_RESPONSES },
      },
    },
    async (request) => ({ data: await getEntityConfig(db, scopeOf(request, 'Entity') as string) }),
  );
  r.put(
    '/tenant/:entity/config',
    {
      schema: {
        tags: ['entities'],
        security,
        summary: 'Change the entity config (superadmins, and entity admins with all access)',
        params: Scoped,
        body: EntityConfigUpdateRequestSchema,
        response: { 200: statusWith(EntityConfigSchema), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const entity = scopeOf(request, 'Entity') as string;
      return {
        status: 'Entity config saved',
        data: await updateEntityConfig(
          db,
          auditContext(request, deps),
          request.auth,
          entity,
          request.body.operator.$set,
        ),
      };
    },
  );
}
