import { DATAVIEW_LIST_REFRESH_MS } from '@fleet/shared/constants';
import { DataviewFacetsSchema, DataviewSchema, type Dataview } from '@fleet/shared/schemas/dataview';
import { listOf } from '@fleet/shared/schemas/list';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { dataviewKeys, dataviewsPath } from './dataview-paths.ts';

const DataviewListSchema = listOf(DataviewSchema);

/** The landlord list's query: its page and the sidebar's checked values. */
export interface LandlordDataviewQuery {
  limit: number;
  offset: number;
  entity: string[];
  owner: string[];
  version: string[];
}

async function getDataviews(path: string, query: object, signal?: AbortSignal) {
  return api.get(path, {
    query: query as Record<string, number | string[]>,
    signal,
    parse: (data) => DataviewListSchema.parse(data),
  }) as Promise<{ data: Dataview[]; total: number }>;
}

/**
 * The entity's dataviews, refreshed every 30 s (fleet §9); the first load is a full load
 * (limit 0), as is every refresh: an entity holds few dataviews.
 */
export function useDataviews(entity: string) {
  const path = dataviewsPath(entity);
  const query = { limit: 0, offset: 0 };
  return useQuery({
    queryKey: dataviewKeys.list(path, query),
    queryFn: ({ signal }) => getDataviews(path, query, signal),
    refetchInterval: DATAVIEW_LIST_REFRESH_MS,
  });
}

/** One page of the landlord's list across entities, filtered and paged by the server. */
export function useLandlordDataviews(query: LandlordDataviewQuery) {
  return useQuery({
    queryKey: dataviewKeys.list('dataview', query),
    queryFn: ({ signal }) => getDataviews('dataview', query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: DATAVIEW_LIST_REFRESH_MS,
  });
}

/** The entities, owners and versions the landlord's sidebar offers. */
export function useDataviewFacets() {
  return useQuery({
    queryKey: dataviewKeys.facets(),
    queryFn: ({ signal }) => api.get('dataview/facets', { signal, parse: (data) => DataviewFacetsSchema.parse(data) }),
    refetchInterval: DATAVIEW_LIST_REFRESH_MS,
  });
}
