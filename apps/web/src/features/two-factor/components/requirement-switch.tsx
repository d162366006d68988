import { Switch } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notifySuccess } from '@/lib/notify.ts';
import { getRequirement, putRequirement } from '../api/two-factor.ts';

/**
 * For an entity's admin (its admins) or a superadmin (the superadmins): require a second factor.
 * `path` is `two-factor-requirement` on the plain path or under `tenant/{entity}/`.
 */
export function RequirementSwitch({ path, label }: { path: string; label: string }) {
  const queryClient = useQueryClient();
  const key = ['two-factor-requirement', path];
  const current = useQuery({ queryKey: key, queryFn: ({ signal }) => getRequirement(path, signal) });
  const change = useMutation({
    mutationFn: (required: boolean) => putRequirement(path, required),
    onSuccess: (answer) => {
      queryClient.setQueryData(key, answer);
      notifySuccess(answer.required_for_admins ? 'Two-factor authentication required' : 'Requirement removed');
    },
  });
  if (!current.data) return null;
  return (
    <Switch
      label={label}
      checked={current.data.required_for_admins}
      disabled={change.isPending}
      onChange={(event) => change.mutate(event.currentTarget.checked)}
    />
  );
}
