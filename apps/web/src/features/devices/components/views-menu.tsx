import { useState } from 'react';
import { Badge, Button, Checkbox, Group, Menu, Modal, Stack, TextInput } from '@mantine/core';
import { IconBookmark, IconBookmarkPlus, IconChevronDown, IconTrash } from '@tabler/icons-react';
import { VIEW_NAME_MAX, type SavedView } from '@fleet/shared/schemas/device-view';
import { useDeleteView, useSaveView, useSavedViews } from '../api/saved-views.ts';

interface ViewsMenuProps {
  landlord: boolean;
  /** The list's filters and sort now, as a query string: what "Save current view" keeps. */
  query: string;
  /** The view the URL names (`?view=`), if any. */
  activeId: string | null;
  onApply(view: SavedView): void;
}

/** Saved views beside the search: apply one, save the current filters and sort, delete one's own. */
export function ViewsMenu({ landlord, query, activeId, onApply }: ViewsMenuProps) {
  const views = useSavedViews(landlord);
  const remove = useDeleteView(landlord);
  const [saving, setSaving] = useState(false);
  const active = views.data?.find((v) => v.id === activeId) ?? null;
  return (
    <>
      <Menu position="bottom-start" shadow="md" withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <Button
            variant={active ? 'light' : 'default'}
            leftSection={<IconBookmark size={16} aria-hidden />}
            rightSection={<IconChevronDown size={16} aria-hidden />}
          >
            {active ? active.name : 'Views'}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{views.data?.length ? 'Saved views' : 'No saved views yet'}</Menu.Label>
          {views.data?.map((view) => (
            <Menu.Item
              key={view.id}
              onClick={() => onApply(view)}
              rightSection={
                view.shared ? (
                  <Badge size="xs" variant="light">
                    Shared
                  </Badge>
                ) : null
              }
            >
              {view.name}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item leftSection={<IconBookmarkPlus size={16} aria-hidden />} onClick={() => setSaving(true)}>
            Save current view…
          </Menu.Item>
          {active?.mine && (
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => remove.mutate(active.id)}
            >
              Delete view “{active.name}”
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <SaveViewModal
        landlord={landlord}
        query={query}
        opened={saving}
        onClose={() => setSaving(false)}
        onSaved={onApply}
      />
    </>
  );
}

function SaveViewModal(props: {
  landlord: boolean;
  query: string;
  opened: boolean;
  onClose(): void;
  onSaved(view: SavedView): void;
}) {
  const save = useSaveView(props.landlord);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const submit = () =>
    save.mutate(
      { name, query: props.query, shared },
      {
        onSuccess: (view) => {
          props.onClose();
          setName('');
          props.onSaved(view);
        },
      },
    );
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Save current view">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          <TextInput
            label="Name"
            required
            maxLength={VIEW_NAME_MAX}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
          />
          <Checkbox
            label={props.landlord ? 'Share with every superadmin' : 'Share with everyone of the entity'}
            checked={shared}
            onChange={(e) => setShared(e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={name.trim() === ''}>
              Save view
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
