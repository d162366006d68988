import { StatusSchema } from '@fleet/shared/schemas/list';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountsPath } from '@/lib/api/account-scope.ts';
import { api } from '@/lib/api/api.ts';
import type { AccountCreateBody } from '../components/account-payload.ts';
import { accountKeys } from './account-keys.ts';

/** POST account `{document}`; resolves with the server's status text, which creation shows (core §8). */
export async function createAccount(landlord: boolean, document: AccountCreateBody): Promise<string> {
  const answer = await api.post(accountsPath(landlord), { document }, { parse: (data) => StatusSchema.parse(data) });
  return answer.status;
}

/** Creates an account and refreshes the account lists. */
export function useCreateAccount(landlord: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (document: AccountCreateBody) => createAccount(landlord, document),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}
