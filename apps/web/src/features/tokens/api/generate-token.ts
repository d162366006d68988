import { GeneratedTokenSchema, type GeneratedToken } from '@fleet/shared/schemas/token';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api/api-error.ts';
import { api } from '@/lib/api/api.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { tokenKeys } from './get-tokens.ts';

/** GET …/permanent-token?description=: creates a token; its value is in this answer only. */
export function generateToken(path: string, description: string): Promise<GeneratedToken> {
  return api.get(path, {
    query: { description: description.trim() || undefined },
    notify: false,
    parse: (data) => GeneratedTokenSchema.parse(data),
  });
}

/** Generates a token with the spec's notices (core §8) and refreshes the token list. */
export function useGenerateToken(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (description: string) => generateToken(path, description),
    onSuccess: () => {
      notifySuccess('Token generated successfully');
      return queryClient.invalidateQueries({ queryKey: tokenKeys.all });
    },
    onError: (error) => {
      console.error('Token not generated:', error);
      notifyError('Failed to generate token', error instanceof ApiError ? error.userMessage : undefined);
    },
  });
}
