import { useParams } from 'react-router';
import { SsoProviderSection } from '@/features/entities/components/sso-provider-section.tsx';
import { EntityConfigView } from '@/features/org/components/entity-config-view.tsx';

/**
 * /entity/{entityName}: the landlord's edit of any entity (core §2), the same form as the config,
 * then the entity's single sign-on provider (issue 31).
 */
export function EntityEditPage() {
  const { entityName = '' } = useParams();
  return (
    <>
      <EntityConfigView key={entityName} entity={entityName} home="/entity" />
      <SsoProviderSection key={`sso-${entityName}`} entity={entityName} />
    </>
  );
}
