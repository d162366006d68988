import { useParams } from 'react-router';
import { EntityConfigView } from '@/features/org/components/entity-config-view.tsx';

/** /entity/{entityName}: the landlord's edit of any entity (core §2), the same form as the config. */
export function EntityEditPage() {
  const { entityName = '' } = useParams();
  return <EntityConfigView key={entityName} entity={entityName} home="/entity" />;
}
