import { DEVICE_LIST_REFRESH_MS } from '@fleet/shared/constants';
import { CommandSchema } from '@fleet/shared/schemas/command';
import { listOf } from '@fleet/shared/schemas/list';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { commandHistoryPath, deviceKeys } from '../../../lib/api/device-paths.ts';

const CommandListSchema = listOf(CommandSchema);

/** Commands per page of the history. */
export const COMMAND_PAGE_SIZE = 20;

/**
 * GET tenant/{entity}/device/{name}/commands, newest first, 20 at a time with "load more";
 * refreshed every 30 s like the device list, and after every command (they invalidate `deviceKeys.all`).
 */
export function useDeviceCommands(entity: string, name: string) {
  const path = commandHistoryPath(entity, name);
  return useInfiniteQuery({
    queryKey: deviceKeys.commands(path),
    queryFn: ({ pageParam, signal }) =>
      api.get(path, {
        query: { limit: COMMAND_PAGE_SIZE, offset: pageParam },
        signal,
        // The section shows its own error state; a notice every 30 s would only nag.
        notify: false,
        parse: (data) => CommandListSchema.parse(data),
      }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
      return last.data.length > 0 && loaded < last.total ? loaded : undefined;
    },
    refetchInterval: DEVICE_LIST_REFRESH_MS,
  });
}
