import { FleetHealth } from '@/features/fleet-health/components/fleet-health.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /fleet: the active entity's fleet health, for every account that reads its devices (issue 27). */
export function FleetHealthPage() {
  useDocumentTitle('Fleet health');
  return <FleetHealth landlord={false} />;
}
