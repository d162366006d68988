import { api } from '@/lib/api/api.ts';
import { apiErrorFromResponse } from '@/lib/api/api-error.ts';
import { refresher, session } from '@/lib/session/session.ts';
import { auditFilterQuery, dispositionName, type AuditFilters } from '../utils/audit-query.ts';
import { auditPath } from './audit-api.ts';

export type ExportFormat = 'csv' | 'json';

/**
 * Downloads the whole filtered log as the server streams it (`…/audit/export?format=`), sent with
 * the session's bearer (a link could not carry it; one refresh and retry on 401), saved under the
 * name the server gives it.
 */
export async function exportAudit(landlord: boolean, filters: AuditFilters, format: ExportFormat): Promise<string> {
  const query = new URLSearchParams({ ...auditFilterQuery(filters, landlord), format });
  const url = `${api.url(`${auditPath(landlord)}/export`)}?${query.toString()}`;
  const send = () => fetch(url, { headers: { Authorization: `Bearer ${session.getSnapshot().accessToken ?? ''}` } });
  let response = await send();
  if (response.status === 401) {
    await refresher.refresh();
    response = await send();
  }
  if (!response.ok) throw await apiErrorFromResponse(response);
  const name = dispositionName(response.headers.get('content-disposition'), `audit.${format}`);
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the URL is released once it has been read.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}
