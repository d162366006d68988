import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { runLimited } from '@/lib/async/run-limited.ts';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import { failureText } from '@/lib/api/failure-text.ts';
import { deleteAllPath, deviceKeys, devicePath, devicesPath } from '../../../lib/api/device-paths.ts';
import { getDevices } from './get-devices.ts';

/** DELETE device/{name}. */
export async function deleteDevice(landlord: boolean, name: string, notify = true): Promise<void> {
  await api.delete(devicePath(landlord, name), { notify });
}

/** Deletes one device, says 'Device deleted' (core §8) and refreshes the lists. */
export function useDeleteDevice(landlord: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => deleteDevice(landlord, name),
    onSuccess: () => {
      notifySuccess('Device deleted');
      return queryClient.invalidateQueries({ queryKey: deviceKeys.all });
    },
    onError: (error) => console.error('Device not deleted:', error),
  });
}

/** The outcome of deleting a selection: the names deleted, and those that failed with why. */
export interface DeleteSelectionResult {
  deleted: string[];
  failed: { name: string; message: string }[];
}

/**
 * Deletes the selected devices one call each (4 at a time) and reports how many succeeded and
 * which failed; single failures are not each announced.
 */
export function useDeleteSelected(landlord: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (names: string[]): Promise<DeleteSelectionResult> => {
      const settled = await runLimited(names, (name) => deleteDevice(landlord, name, false), { limit: 4 });
      const result: DeleteSelectionResult = { deleted: [], failed: [] };
      settled.forEach((outcome, i) => {
        const name = names[i] ?? '';
        if (outcome.status === 'fulfilled') result.deleted.push(name);
        else result.failed.push({ name, message: outcome.status === 'rejected' ? failureText(outcome.reason) : '' });
      });
      return result;
    },
    onSuccess: ({ deleted, failed }) => {
      const devices = (n: number) => `${n} device${n === 1 ? '' : 's'}`;
      if (failed.length === 0)
        notifySuccess(deleted.length === 1 ? 'Device deleted' : `${devices(deleted.length)} deleted`);
      else if (deleted.length === 0) notifyError(`No device deleted: ${failed.length} failed`, failed[0]?.message);
      else notifyWarning(`${devices(deleted.length)} deleted, ${failed.length} failed: ${failed[0]?.message ?? ''}`);
      return queryClient.invalidateQueries({ queryKey: deviceKeys.all });
    },
  });
}

/**
 * How many devices "delete all" would remove: the list's whole scope, filters aside (the
 * landlord's chosen entity only, when one is chosen). Read when the user asks, not from the page.
 */
export async function countAllDevices(landlord: boolean, entity: string): Promise<number> {
  const query: Record<string, string | number> = { limit: 1, offset: 0 };
  if (landlord && entity !== '') query.entity = entity;
  return (await getDevices(devicesPath(landlord), query)).total;
}

/** DELETE device/all (the landlord's chosen entity only, when one is chosen); 'All devices deleted'. */
export function useDeleteAllDevices(landlord: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entity: string) => api.delete(deleteAllPath(landlord, entity)),
    onSuccess: () => {
      notifySuccess('All devices deleted');
      return queryClient.invalidateQueries({ queryKey: deviceKeys.all });
    },
    onError: (error) => console.error('Devices not deleted:', error),
  });
}
