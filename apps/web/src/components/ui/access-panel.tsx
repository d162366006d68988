import { Alert, Button, Group } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { AREA_RULES, type Area } from '@fleet/shared/access/rule';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { PageHeader } from './page-header.tsx';

interface AccessPanelProps {
  area: Area;
  /** `none`: the account may not use the screen at all; `read`: it may look but not change. */
  kind: 'none' | 'read';
  /** The screen's heading; the area's name unless given. */
  title?: string;
  /** Where Back goes; by default the previous screen (or the start). */
  onBack?(): void;
}

/**
 * What a screen says to an account the access rule keeps out, in words and with what to ask for,
 * instead of a form that would be refused or a list that "could not be loaded".
 */
export function AccessPanel({ area, kind, title, onBack }: AccessPanelProps) {
  const rule = AREA_RULES[area];
  const goBack = useGoBack('/');
  return (
    <>
      <PageHeader title={title ?? rule.label} />
      <Alert
        color="gray"
        variant="light"
        maw={640}
        icon={<IconLock size={18} aria-hidden />}
        title={kind === 'read' ? 'Read-only access' : `You do not have access to ${rule.noun}`}
      >
        {kind === 'read'
          ? `Your account can see ${rule.label.toLowerCase()} but not add or change them. ${rule.ask}`
          : `Your account cannot use this screen. ${rule.ask}`}
        <Group mt="md">
          <Button variant="default" onClick={onBack ?? goBack}>
            Back
          </Button>
        </Group>
      </Alert>
    </>
  );
}
