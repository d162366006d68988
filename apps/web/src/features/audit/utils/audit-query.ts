import type { AuditAction, AuditOutcome, AuditTargetType } from '@fleet/shared/audit-actions';

/** The time ranges the filter offers, newest back; `any` sends no `from`. */
export const AUDIT_RANGES = [
  { value: 'any', label: 'Any time', ms: null },
  { value: '1h', label: 'Last hour', ms: 3_600_000 },
  { value: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
] as const;
export type AuditRange = (typeof AUDIT_RANGES)[number]['value'];

/** What the filter bar holds; empty strings mean "any". */
export interface AuditFilters {
  range: AuditRange;
  /** The start of `range` as ISO, fixed when the range was chosen (so pages of one query agree). */
  from: string | null;
  action: AuditAction | '';
  targetType: AuditTargetType | '';
  targetName: string;
  outcome: AuditOutcome | '';
  actor: string;
  search: string;
  /** The superadmin's entity filter: an entity's name, `landlord`, or '' for every entity. */
  entity: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = {
  range: 'any',
  from: null,
  action: '',
  targetType: '',
  targetName: '',
  outcome: '',
  actor: '',
  search: '',
  entity: '',
};

/** The start of `range` before `now`, or null for any time. */
export function rangeStart(range: AuditRange, now: number): string | null {
  const ms = AUDIT_RANGES.find((r) => r.value === range)?.ms ?? null;
  return ms === null ? null : new Date(now - ms).toISOString();
}

/** The API's filter parameters (docs/audit.md) for the filters; the entity only on the landlord's path. */
export function auditFilterQuery(filters: AuditFilters, landlord: boolean): Record<string, string> {
  const query: Record<string, string> = {};
  const put = (key: string, value: string | null) => {
    const v = value?.trim();
    if (v) query[key] = v;
  };
  put('from', filters.from);
  put('action', filters.action);
  put('target_type', filters.targetType);
  put('target_name', filters.targetName);
  put('outcome', filters.outcome);
  put('actor', filters.actor);
  put('search', filters.search);
  if (landlord) put('entity', filters.entity);
  return query;
}

/** Whether any filter narrows the list (the empty state then says so). */
export const isFiltered = (filters: AuditFilters) => Object.keys(auditFilterQuery(filters, true)).length > 0;
