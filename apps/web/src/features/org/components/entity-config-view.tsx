import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { mayChange } from '@fleet/shared/access/rule';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { ListError } from '@/components/ui/table-states.tsx';
import { isNotFound, useBackWhenMissing } from '@/lib/navigation/use-back-when-missing.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { useEntityConfig } from '../api/entity-config.ts';
import { EntityConfigForm } from './entity-config-form.tsx';

/**
 * The entity config of `entity`: the active one (/entity/config) or, for the landlord, any
 * (/entity/{entityName}). Only the landlord and admins with all access may save.
 */
export function EntityConfigView({ entity, home, actions }: { entity: string; home: string; actions?: ReactNode }) {
  useDocumentTitle('Entity configuration');
  const claims = useSession().claims;
  const writable = mayChange(claims, 'entityConfig');
  const config = useEntityConfig(entity);
  const navigate = useNavigate();
  useBackWhenMissing(entity === '' || isNotFound(config.error), home);
  if (config.isPending || isNotFound(config.error)) return <PageLoader />;
  if (config.isError)
    return (
      <>
        <PageHeader title="Entity configuration" />
        <ListError title="The entity config could not be loaded." onRetry={() => void config.refetch()} />
      </>
    );
  return (
    <>
      <PageHeader title="Entity configuration" description={config.data.name} />
      <EntityConfigForm
        key={config.data.name}
        config={config.data}
        readOnly={!writable}
        onDone={() => void navigate(home)}
        actions={actions}
      />
    </>
  );
}
