import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { DEVICE_LIST_REFRESH_MS } from '@fleet/shared/constants';
import { TelemetrySchema, TimelineSchema } from '@fleet/shared/schemas/telemetry';
import { z } from 'zod';
import { api } from '@/lib/api/api.ts';
import { tenantPath } from '@/lib/api/api-client.ts';
import { rangeMs, type HistoryRange } from '../utils/history-series.ts';

const TelemetryAnswer = z.object({ data: TelemetrySchema });

/** Events per page of the timeline. */
export const TIMELINE_PAGE_SIZE = 25;

/** `tenant/{entity}/device/{name}/…`: the device's own entity, which also serves the landlord. */
const historyPath = (entity: string, name: string, what: 'telemetry' | 'timeline') =>
  tenantPath(entity, `device/${encodeURIComponent(name)}/${what}`);

export const historyKeys = {
  all: ['device-history'] as const,
  telemetry: (path: string, range: string) => [...historyKeys.all, path, range] as const,
  timeline: (path: string) => [...historyKeys.all, path] as const,
};

/** The device's telemetry over the last `range` (raw or hourly, as the server decides); refreshed while open. */
export function useTelemetry(entity: string, name: string, range: HistoryRange, now: () => number = Date.now) {
  const path = historyPath(entity, name, 'telemetry');
  return useQuery({
    queryKey: historyKeys.telemetry(path, range),
    queryFn: ({ signal }) => {
      const to = now();
      const query = { from: new Date(to - rangeMs(range)).toISOString(), to: new Date(to).toISOString() };
      return api.get(path, { query, signal, notify: false, parse: (d) => TelemetryAnswer.parse(d).data });
    },
    placeholderData: keepPreviousData,
    refetchInterval: DEVICE_LIST_REFRESH_MS,
  });
}

/** The device's timeline, newest first, a page at a time ("Load more" asks for what came before). */
export function useTimeline(entity: string, name: string) {
  const path = historyPath(entity, name, 'timeline');
  return useInfiniteQuery({
    queryKey: historyKeys.timeline(path),
    queryFn: ({ pageParam, signal }) =>
      api.get(path, {
        query: { limit: TIMELINE_PAGE_SIZE, before: pageParam ?? undefined },
        signal,
        notify: false,
        parse: (d) => TimelineSchema.parse(d),
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_before ?? undefined,
    refetchInterval: DEVICE_LIST_REFRESH_MS,
  });
}
