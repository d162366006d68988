import { useEntities } from '@/features/entities/api/get-entities.ts';
import { AuditLog } from '@/features/audit/components/audit-log.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /saudit: every entity's audit log for the superadmin, with an entity filter (issue 26). */
export function LandlordAuditPage() {
  useDocumentTitle('Audit log');
  const entities = useEntities();
  return <AuditLog landlord entities={entities.data?.map((e) => e.name)} />;
}
