import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { tokenKeys } from './get-tokens.ts';

/** DELETE account/{name}/token/{tokenHash}. */
export async function revokeToken(path: string): Promise<void> {
  await api.delete(path);
}

/** Revokes a token, says 'Token revoked' (core §8) and refreshes the list. */
export function useRevokeToken(pathFor: (tokenHash: string) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenHash: string) => revokeToken(pathFor(tokenHash)),
    onSuccess: () => {
      notifySuccess('Token revoked');
      return queryClient.invalidateQueries({ queryKey: tokenKeys.all });
    },
    onError: (error) => console.error('Token not revoked:', error),
  });
}
