import { AccountSchema, type Account } from '@fleet/shared/schemas/account';
import { listOf } from '@fleet/shared/schemas/list';
import { useQuery } from '@tanstack/react-query';
import { accountsPath } from '@/lib/api/account-scope.ts';
import { api } from '@/lib/api/api.ts';
import { accountKeys } from './account-keys.ts';

const AccountListSchema = listOf(AccountSchema);

/** GET account?limit=0: every account the viewer may see (all of them for the landlord). */
export async function getAccounts(path: string, signal?: AbortSignal): Promise<Account[]> {
  const answer = await api.get(path, { query: { limit: 0 }, signal, parse: (data) => AccountListSchema.parse(data) });
  return answer.data;
}

/** The account list at the landlord's plain path or the active entity's. */
export function useAccounts(landlord: boolean) {
  const path = accountsPath(landlord);
  return useQuery({ queryKey: accountKeys.list(path), queryFn: ({ signal }) => getAccounts(path, signal) });
}
