import type { AccountUpdateSet } from '@fleet/shared/schemas/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountPath } from '@/lib/api/account-scope.ts';
import { api } from '@/lib/api/api.ts';
import { accountKeys } from './account-keys.ts';

export const ACCOUNT_SAVED = 'Account saved';

/** PUT account/{name} `{operator: {$set}}`: a profile change or a new password. */
export async function updateAccount(landlord: boolean, name: string, set: AccountUpdateSet): Promise<void> {
  await api.put(accountPath(landlord, name), { operator: { $set: set } });
}

/** Saves changes to account `name` and marks every cached account stale. */
export function useUpdateAccount(landlord: boolean, name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (set: AccountUpdateSet) => updateAccount(landlord, name, set),
    onSuccess: (_answer, set) => {
      // After a rename the old name is gone: refetching the open screen's query would only 404.
      const renamed = set.name !== undefined && set.name !== name;
      return queryClient.invalidateQueries({ queryKey: accountKeys.all, refetchType: renamed ? 'none' : 'active' });
    },
  });
}
