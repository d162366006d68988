import { AlertBell } from '@/features/alerts/components/alert-bell.tsx';
import { useEntities } from '@/features/entities/api/get-entities.ts';

interface HeaderAlertBellProps {
  /** The entity the screens act in; null for a superadmin outside every entity (no bell). */
  entity: string | null;
  /** A superadmin: the entity comes from a link or this tab's choice and may not exist. */
  landlord: boolean;
}

/**
 * The header's alert bell. A superadmin's gets its entity only once the entity list says it exists,
 * as the screens do (EntityScope): a link naming an unknown entity opens no stream to it.
 */
export function HeaderAlertBell({ entity, landlord }: HeaderAlertBellProps) {
  if (!entity) return null;
  return landlord ? <KnownEntityBell entity={entity} /> : <AlertBell entity={entity} />;
}

function KnownEntityBell({ entity }: { entity: string }) {
  const entities = useEntities();
  return entities.data?.some((e) => e.name === entity) ? <AlertBell entity={entity} /> : null;
}
