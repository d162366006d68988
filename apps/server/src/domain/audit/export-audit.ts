import type { AuditEntry, AuditFilter } from '@fleet/shared/schemas/audit';
import type { Db } from '../../db/client.ts';
import { auditPages, type AuditScope } from './list-audit.ts';

export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'entity',
  'actor_kind',
  'actor_id',
  'actor_name',
  'actor_account',
  'address',
  'user_agent',
  'action',
  'target_type',
  'target_name',
  'outcome',
  'reason',
  'changes',
  'details',
] as const;

/** A CSV field (RFC 4180), with a leading formula character defused for spreadsheets. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvRow = (e: AuditEntry) =>
  [
    e.id,
    e.at,
    e.entity,
    e.actor.kind,
    e.actor.id,
    e.actor.name,
    e.actor.account,
    e.address,
    e.user_agent,
    e.action,
    e.target.type,
    e.target.name,
    e.outcome,
    e.reason,
    e.changes,
    e.details,
  ]
    .map(csvField)
    .join(',');

/** The export's body, a page of the database at a time: CSV with a header, or a JSON array. */
export async function* exportAudit(db: Db, scope: AuditScope, f: AuditFilter, format: 'csv' | 'json') {
  let first = true;
  if (format === 'csv') yield AUDIT_CSV_COLUMNS.join(',') + '\r\n';
  else yield '[';
  for await (const page of auditPages(db, scope, f)) {
    if (format === 'csv') yield page.map((e) => csvRow(e) + '\r\n').join('');
    else {
      yield (first ? '' : ',') + page.map((e) => JSON.stringify(e)).join(',');
      first = false;
    }
  }
  if (format === 'json') yield ']';
}

/** The download's file name: the entity (or `all`) and the day. */
export const exportName = (scope: string, format: 'csv' | 'json', now = new Date()) =>
  `audit-${scope.replace(/[^A-Za-z0-9_-]/g, '_')}-${now.toISOString().slice(0, 10)}.${format}`;
