import { EntityConfigView } from '@/features/org/components/entity-config-view.tsx';
import { UploadButtons } from '@/features/files/components/upload-buttons.tsx';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';

/** /entity/config: the active entity's config with its File and Firmware buttons; Save and Cancel return home (fleet §2). */
export function EntityConfigPage() {
  const entity = useActiveEntity();
  return (
    <EntityConfigView entity={entity} home="/" actions={<UploadButtons target={{ level: 'entity', id: entity }} />} />
  );
}
