import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AuditPageSchema } from '@fleet/shared/schemas/audit';
import { api } from '@/lib/api/api.ts';
import { auditFilterQuery, type AuditFilters } from '../utils/audit-query.ts';

/** `audit` for the landlord (every entity), `tenant/{entity}/audit` for the active entity. */
export const auditPath = (landlord: boolean) => (landlord ? 'audit' : api.tenant('audit'));

export const auditKeys = {
  all: ['audit'] as const,
  list: (path: string, query: Record<string, string | number>) => [...auditKeys.all, path, query] as const,
};

/** One page of the audit log, newest first, with the filters; the previous page stays while the next loads. */
export function useAuditLog(landlord: boolean, filters: AuditFilters, page: number, size: number) {
  const path = auditPath(landlord);
  const query = { ...auditFilterQuery(filters, landlord), limit: size, offset: (page - 1) * size };
  return useQuery({
    queryKey: auditKeys.list(path, query),
    queryFn: ({ signal }) =>
      api.get(path, { query, signal, notify: false, parse: (data) => AuditPageSchema.parse(data) }),
    placeholderData: keepPreviousData,
  });
}
