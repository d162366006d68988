import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { groupsApi } from '@/features/org/api/groups.ts';
import { GroupDevices } from '@/features/org/components/group-devices.tsx';
import { GroupForm } from '@/features/org/components/group-form.tsx';
import { OrgEditView } from '@/features/org/components/org-edit-view.tsx';
import { useOrgRights } from '@/features/org/hooks/use-org-rights.ts';
import { UploadButtons } from '@/features/files/components/upload-buttons.tsx';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';

/** /dispenser/{name} (fleet §2), with the devices in the group. With its Files and Firmwares buttons (issue 11). */
export function GroupEditPage() {
  const navigate = useNavigate();
  const goBack = useGoBack('/dispenser');
  const { write } = useOrgRights('Group');
  return (
    <OrgEditView
      resource={groupsApi}
      title={write ? 'Edit group' : 'Group'}
      list="/dispenser"
      render={(group) => (
        <Stack gap="lg">
          <GroupForm
            key={group.name}
            group={group}
            readOnly={!write}
            actions={<UploadButtons target={{ level: 'group', id: group.id, name: group.name }} />}
            onSaved={() => void navigate('/dispenser')}
            onCancel={goBack}
          />
          <GroupDevices group={group} writable={write} />
        </Stack>
      )}
    />
  );
}
