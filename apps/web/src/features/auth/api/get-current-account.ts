import { isCurrentAccountResponse } from '@fleet/shared/guards';
import type { CurrentAccount } from '@fleet/shared/schemas/account';
import { expectShape } from '@/lib/api/expect-shape.ts';
import { api } from '@/lib/api/api.ts';
import { tenantPath } from '@/lib/api/api-client.ts';
import { LANDLORD_ENTITY } from '@/lib/session/session-store.ts';

/** The signed-in account's path: plain for the landlord, tenant-prefixed for everyone else (core §7). */
export function currentAccountPath(username: string, entity: string): string {
  const account = `account/${encodeURIComponent(username)}`;
  return entity === LANDLORD_ENTITY ? account : tenantPath(entity, account);
}

/** GET the signed-in account; errors are left to the caller, which has its own message. */
export async function getCurrentAccount(username: string, entity: string): Promise<CurrentAccount> {
  const answer = await api.get(currentAccountPath(username, entity), {
    notify: false,
    parse: expectShape(isCurrentAccountResponse, 'account'),
  });
  return answer.data;
}
