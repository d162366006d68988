import type { EntityCreateRequestSchema } from '@fleet/shared/schemas/entity';
import { RESERVED_ENTITY_NAMES } from '@fleet/shared/validation';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { entities } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { HttpError, invalidField } from '../../lib/http-error.ts';
import { presentEntity } from './present-entity.ts';

type Request = z.output<typeof EntityCreateRequestSchema>;

/** Creates an entity from core §7's `{document: {name: {name, description}}}`. */
export async function createEntity(db: Db, body: Request) {
  const { name, description, license_tier } = body.document.name;
  if ((RESERVED_ENTITY_NAMES as readonly string[]).includes(name.toLowerCase())) {
    throw invalidField('document.name.name', `"${name}" is reserved`);
  }
  try {
    const [row] = await db
      .insert(entities)
      .values({ name, description, license_tier: license_tier ?? body.document.license_tier ?? 'basic' })
      .returning();
    return presentEntity(row!);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const message = 'An entity with this name already exists';
    throw new HttpError(409, message, 'Entity name taken', { 'document.name.name': [message] });
  }
}
