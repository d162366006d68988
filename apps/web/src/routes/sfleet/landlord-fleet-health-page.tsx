import { useEntities } from '@/features/entities/api/get-entities.ts';
import { FleetHealth } from '@/features/fleet-health/components/fleet-health.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /sfleet: the fleet health of every entity for the superadmin, with an entity filter (issue 27). */
export function LandlordFleetHealthPage() {
  useDocumentTitle('Fleet health');
  const entities = useEntities();
  return <FleetHealth landlord entities={entities.data?.map((e) => e.name)} />;
}
