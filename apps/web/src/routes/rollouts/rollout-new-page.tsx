import { PageHeader } from '@/components/ui/page-header.tsx';
import { useSavedViews } from '@/features/devices/api/saved-views.ts';
import { useFirmware } from '@/features/files/api/firmware.ts';
import { groupsApi } from '@/features/org/api/groups.ts';
import { sitesApi } from '@/features/org/api/sites.ts';
import { RolloutForm } from '@/features/rollouts/components/rollout-form.tsx';
import type { ChoiceSources, Choices } from '@/features/rollouts/utils/choice-sources.ts';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const choices = <T,>(
  q: { data?: T[]; isPending: boolean; isError: boolean },
  f: (t: T) => NonNullable<Choices['data']>[number] | null,
): Choices => ({
  data: q.data?.map(f).filter((c) => c !== null),
  loading: q.isPending,
  failed: q.isError,
});

/** The form's lists: the entity's firmware, groups, sites and shared saved views. */
const SOURCES: ChoiceSources = {
  useFirmware() {
    const entity = useActiveEntity();
    return choices(useFirmware({ level: 'entity', id: entity }, entity !== ''), (f) => ({
      value: f.id,
      label: `${f.device_type} ${f.version}`,
    }));
  },
  useGroups: () => choices(groupsApi.useList(), (g) => ({ value: g.name, label: g.name })),
  useSites: () => choices(sitesApi.useList(), (s) => ({ value: s.name, label: s.name })),
  useSharedViews: () => choices(useSavedViews(false), (v) => (v.shared ? { value: v.name, label: v.name } : null)),
};

/** /rollouts/new: the create form with the dry-run count per stage (issue 28). */
export function RolloutNewPage() {
  useDocumentTitle('New rollout');
  return (
    <>
      <PageHeader title="New rollout" description="A firmware version or file set, sent to a target in stages." />
      <RolloutForm sources={SOURCES} />
    </>
  );
}
