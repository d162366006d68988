import { downloadExport } from '@/lib/api/download-export.ts';
import { auditFilterQuery, type AuditFilters } from '../utils/audit-query.ts';
import { auditPath } from './audit-api.ts';

export type ExportFormat = 'csv' | 'json';

/** Downloads the whole filtered log as the server streams it (`…/audit/export?format=`). */
export function exportAudit(landlord: boolean, filters: AuditFilters, format: ExportFormat): Promise<string> {
  const query = new URLSearchParams({ ...auditFilterQuery(filters, landlord), format });
  return downloadExport(`${auditPath(landlord)}/export`, query, `audit.${format}`);
}
