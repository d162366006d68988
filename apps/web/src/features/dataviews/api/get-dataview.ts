import { DataviewWithContentSchema, type DataviewWithContent } from '@fleet/shared/schemas/dataview';
import { mayHoldDataviews } from '@fleet/shared/dataview-access';
import { AccountSchema } from '@fleet/shared/schemas/account';
import { listOf } from '@fleet/shared/schemas/list';
import { z } from 'zod';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { tenantPath } from '@/lib/api/api-client.ts';
import { dataviewKeys, dataviewPath } from './dataview-paths.ts';

const OneSchema = z.object({ data: DataviewWithContentSchema });

/** GET tenant/{entity}/dataview/{name}: one dataview with its content. */
export async function getDataview(entity: string, name: string, notify = true): Promise<DataviewWithContent> {
  const answer = await api.get(dataviewPath(entity, name), { notify, parse: (data) => OneSchema.parse(data) });
  return answer.data;
}

export function useDataview(entity: string, name: string) {
  return useQuery({ queryKey: dataviewKeys.detail(entity, name), queryFn: () => getDataview(entity, name) });
}

const AccountListSchema = listOf(AccountSchema);

/** The admin and developer accounts of the entity: who may own or be authorised for a dataview (fleet §6). */
export function useDataviewAccountChoices(entity: string) {
  return useQuery({
    queryKey: dataviewKeys.accounts(entity),
    queryFn: async ({ signal }) => {
      const answer = await api.get(tenantPath(entity, 'account'), {
        query: { limit: 0 },
        signal,
        parse: (data) => AccountListSchema.parse(data),
      });
      return answer.data
        .filter((a) => mayHoldDataviews(a.subtype))
        .map((a) => a.name)
        .sort();
    },
  });
}
