import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { AccessPanel } from '@/components/ui/access-panel.tsx';
import { ListError } from '@/components/ui/table-states.tsx';
import { isForbidden } from '@/lib/api/api-error.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { isNotFound, useBackWhenMissing } from '@/lib/navigation/use-back-when-missing.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import type { namedResource } from '../api/named-resource.ts';

interface OrgEditViewProps<T extends { name: string }> {
  resource: ReturnType<typeof namedResource<T>>;
  title: string;
  /** The list screen, where an unknown name without history goes. */
  list: string;
  render(item: T): ReactNode;
}

/** An edit screen by route parameter `name`: loads it, and an unknown or missing name goes back (fleet §2). */
export function OrgEditView<T extends { name: string }>({ resource, title, list, render }: OrgEditViewProps<T>) {
  useDocumentTitle(title);
  const { name = '' } = useParams();
  const item = resource.useOne(name);
  const goBack = useGoBack(list);
  useBackWhenMissing(name === '' || isNotFound(item.error), list);
  if (item.isPending || isNotFound(item.error)) return <PageLoader />;
  // Refused: say so in words (the access rule's), not "could not be loaded".
  if (isForbidden(item.error))
    return <AccessPanel area={resource.keys.all[0] === 'dispenser' ? 'groups' : 'sites'} kind="none" onBack={goBack} />;
  if (item.isError)
    return (
      <>
        <PageHeader title={title} />
        <ListError title="It could not be loaded." onRetry={() => void item.refetch()} />
      </>
    );
  return (
    <>
      <PageHeader title={title} description={item.data.name} />
      {render(item.data)}
    </>
  );
}
