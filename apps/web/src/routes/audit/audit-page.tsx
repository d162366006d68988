import { AuditLog } from '@/features/audit/components/audit-log.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /audit: the active entity's audit log, for its admins with all access (issue 26). */
export function AuditPage() {
  useDocumentTitle('Audit log');
  return <AuditLog landlord={false} />;
}
