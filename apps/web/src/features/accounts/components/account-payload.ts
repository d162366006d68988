import type { AccessValue, Subtype } from '@fleet/shared/constants';
import type { Account, AccountCreateDocument, AccountUpdateSet } from '@fleet/shared/schemas/account';

/** What the create forms hold; `entity` and `access` only matter on the landlord's form. */
export interface AccountCreateValues {
  name: string;
  email: string;
  password: string;
  confirmation: string;
  subtype: Subtype;
  entity: string;
  access: AccessValue[];
}

/** POST account's document; the password may be dropped when empty (core §5). */
export type AccountCreateBody = Omit<AccountCreateDocument, 'password'> & { password?: string };

/**
 * The `{document}` of POST account (core §5): an empty password or entity is dropped, and a
 * superadmin never carries an entity or access list. `withAccess` is the landlord form's section.
 */
export function buildAccountCreate(values: AccountCreateValues, withAccess: boolean): AccountCreateBody {
  const document: AccountCreateBody = { name: values.name.trim(), email: values.email.trim(), subtype: values.subtype };
  if (values.password !== '') document.password = values.password;
  const superadmin = values.subtype === 'sadmin';
  const entity = values.entity.trim();
  if (!superadmin && entity !== '') document.entity = entity;
  if (withAccess && !superadmin) document.access = values.access;
  return document;
}

/** What the edit forms can change; fields a form lacks stay undefined and are not sent. */
export interface AccountEditValues {
  name: string;
  email: string;
  subtype?: Subtype;
  password?: string;
  entity?: string;
}

/**
 * The `$set` of PUT account/{name} (core §5): the name only when it changed; an empty password
 * or entity is dropped.
 */
export function buildAccountUpdate(original: Pick<Account, 'name'>, values: AccountEditValues): AccountUpdateSet {
  const set: AccountUpdateSet = { email: values.email.trim() };
  const name = values.name.trim();
  if (name !== original.name) set.name = name;
  if (values.subtype !== undefined) set.subtype = values.subtype;
  if (values.password) set.password = values.password;
  if (values.entity?.trim()) set.entity = values.entity.trim();
  return set;
}
