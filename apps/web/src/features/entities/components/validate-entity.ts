import { apiName, description } from '@fleet/shared/validation';
import type { FieldErrors } from '@/lib/forms/field-errors.ts';
import { firstIssue } from '@/lib/forms/first-issue.ts';
import type { NewEntity } from '../api/create-entity.ts';

export type EntityField = keyof NewEntity;
export const ENTITY_FIELDS: readonly EntityField[] = ['name', 'description'];

/** Entity create (core §5): name required in api-name format; the description is free text. */
export function validateEntity(values: NewEntity): FieldErrors<EntityField> {
  return {
    name: firstIssue(apiName(), values.name),
    description: firstIssue(description(), values.description),
  };
}
