import { MESSAGES } from '@fleet/shared/validation';
import type { AccountCreateRequestSchema } from '@fleet/shared/schemas/account';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { z } from 'zod';
import { accounts } from '../../db/schema.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.ts';
import { HttpError, forbidden, invalidField, notFound } from '../../lib/http-error.ts';
import { hashPassword } from '../../lib/password.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { assertKnownEntity } from '../entity/entity-exists.ts';
import { assertMayCreate, isLandlord } from './account-policy.ts';
import { presentAccount, type Scope } from './account-scope.ts';

type Document = z.output<typeof AccountCreateRequestSchema>['document'];

export const nameTaken = (field = 'document.name') =>
  new HttpError(409, 'An account with this name already exists', 'Account name taken', {
    [field]: ['An account with this name already exists'],
  });

/** Creates an account in the scope's entity (or, for the landlord's plain path, the document's). */
export async function createAccount(deps: Deps, ctx: AuditContext, actor: AccessClaims, scope: Scope, doc: Document) {
  if (doc.subtype === 'sadmin' && scope !== null)
    throw invalidField('document.subtype', 'A superadmin belongs to no entity');
  const entity = doc.subtype === 'sadmin' ? null : (scope ?? doc.entity ?? null);
  if (doc.subtype !== 'sadmin' && entity === null) throw invalidField('document.entity', MESSAGES.required);
  assertMayCreate(actor, doc.subtype, entity);
  if (!isLandlord(actor) && doc.access.length > 0) throw forbidden('Only superadmins set access permissions');
  // An entity in the path was found before the request got here; one in the body is checked.
  if (scope === null && entity !== null) await assertKnownEntity(deps.db, entity, 'document.entity');
  const password_hash = await hashPassword(doc.password);
  const entry = { action: 'account.create', entity, target: { type: 'account', name: doc.name } } as const;
  const complete = (after: ReturnType<typeof presentAccount>) => ({ after });
  return audited(deps.db, ctx, { ...entry, complete }, async (tx) => {
    try {
      const [row] = await tx
        .insert(accounts)
        .values({
          name: doc.name,
          email: doc.email,
          password_hash,
          subtype: doc.subtype,
          entity,
          access: doc.subtype === 'sadmin' ? ['all'] : doc.access,
        })
        .returning();
      return presentAccount(row!);
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      // The entity was deleted meanwhile.
      if (isForeignKeyViolation(err)) throw notFound('Entity');
      throw err;
    }
  });
}
