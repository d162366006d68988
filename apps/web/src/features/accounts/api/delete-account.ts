import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountPath } from '@/lib/api/account-scope.ts';
import { api } from '@/lib/api/api.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { accountKeys } from './account-keys.ts';

/** DELETE account/{name}. */
export async function deleteAccount(landlord: boolean, name: string): Promise<void> {
  await api.delete(accountPath(landlord, name));
}

/** Deletes an account, says 'Account deleted' (core §8) and refreshes the lists. */
export function useDeleteAccount(landlord: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => deleteAccount(landlord, name),
    onSuccess: () => {
      notifySuccess('Account deleted');
      return queryClient.invalidateQueries({ queryKey: accountKeys.all });
    },
    onError: (error) => console.error('Account not deleted:', error),
  });
}
