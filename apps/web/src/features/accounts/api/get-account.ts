import { AccountResponseSchema, type CurrentAccount } from '@fleet/shared/schemas/account';
import { useQuery } from '@tanstack/react-query';
import { accountPath } from '@/lib/api/account-scope.ts';
import { api } from '@/lib/api/api.ts';
import { accountKeys } from './account-keys.ts';

/** GET account/{name}. */
export async function getAccount(path: string, signal?: AbortSignal): Promise<CurrentAccount> {
  const answer = await api.get(path, { signal, parse: (data) => AccountResponseSchema.parse(data) });
  return answer.data;
}

/** One account by name, at the landlord's plain path or the active entity's. */
export function useAccount(landlord: boolean, name: string) {
  const path = accountPath(landlord, name);
  return useQuery({
    queryKey: accountKeys.detail(path),
    queryFn: ({ signal }) => getAccount(path, signal),
    enabled: name !== '',
  });
}
