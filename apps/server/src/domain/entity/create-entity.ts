import type { EntityCreateRequestSchema } from '@fleet/shared/schemas/entity';
import { RESERVED_ENTITY_NAMES } from '@fleet/shared/validation';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { entities } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { HttpError, invalidField } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { createDefaultRules } from '../alert/default-rules.ts';
import { presentEntity } from './present-entity.ts';

type Request = z.output<typeof EntityCreateRequestSchema>;

/** Creates an entity from core §7's `{document: {name: {name, description}}}`. */
export async function createEntity(db: Db, ctx: AuditContext, body: Request) {
  const { name, description, license_tier } = body.document.name;
  if ((RESERVED_ENTITY_NAMES as readonly string[]).includes(name.toLowerCase())) {
    throw invalidField('document.name.name', `"${name}" is reserved`);
  }
  // Tenants are the landlord's own business: the entry is landlord-level.
  const entry = { action: 'entity.create', entity: null, target: { type: 'entity', name } } as const;
  const complete = (after: ReturnType<typeof presentEntity>) => ({ after });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    try {
      const [row] = await tx
        .insert(entities)
        .values({ name, description, license_tier: license_tier ?? body.document.license_tier ?? 'basic' })
        .returning();
      await createDefaultRules(tx, name);
      return presentEntity(row!);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const message = 'An entity with this name already exists';
      throw new HttpError(409, message, 'Entity name taken', { 'document.name.name': [message] });
    }
  });
}
