import { useEffect, useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileUpload, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { mayChangeDevices } from '@fleet/shared/registry-access';
import type { Device } from '@fleet/shared/schemas/device';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import {
  countAllDevices,
  useDeleteAllDevices,
  useDeleteDevice,
  useDeleteSelected,
} from '@/features/devices/api/delete-devices.ts';
import { useConfirmDeleteAll } from '@/features/devices/components/delete-all-confirm.tsx';
import { useDeviceFacets } from '@/features/devices/api/get-device-facets.ts';
import { useDevices } from '@/features/devices/api/get-devices.ts';
import { DeviceFilterDrawer } from '@/features/devices/components/device-filters.tsx';
import { DevicePagination } from '@/features/devices/components/device-pagination.tsx';
import { ExportButton } from '@/features/devices/components/export-button.tsx';
import { DeviceTable } from '@/features/devices/components/device-table.tsx';
import { FilterBar } from '@/features/devices/components/filter-bar.tsx';
import { SelectAllBanner } from '@/features/devices/components/select-all-banner.tsx';
import { ViewsMenu } from '@/features/devices/components/views-menu.tsx';
import { useMatchingAction } from './use-matching-action.tsx';
import { useViewUrl } from '@/features/devices/hooks/use-view-url.ts';
import { MultiDeviceMenu } from '@/features/commands/components/multi-device-menu.tsx';
import { firstOrder } from '@/features/devices/components/sort-header.tsx';
import { useDeviceListCommands } from '@/features/commands/hooks/use-device-list-commands.ts';
import { provisioning, useResumeProvisioning } from '@/features/provisioning/hooks/use-provisioning.ts';
import { ProvisioningModal } from '@/features/provisioning/components/provisioning-modal.tsx';
import { useDeviceListState } from '@/features/devices/hooks/use-device-list-state.ts';
import { useNow } from '@/lib/use-now.ts';
import { useSelection } from '@/features/devices/hooks/use-selection.ts';
import {
  NO_FILTERS,
  countFilters,
  hasFilters,
  lastPage,
  withFilters,
  type DeviceFilters,
  writeListState,
  type DeviceSort,
} from '@/features/devices/utils/list-query.ts';
import { notifyWarning } from '@/lib/notify.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { useDeviceRowExtras } from './device-row-extras.tsx';
import { planProvisionSelected, provisionSelectedNotice } from './provision-selected.ts';

/**
 * The device list for both roles (core §2): the entity's devices at /device, every entity's at
 * /sdevices (with the Entity column and filter). Page, sort and filters live in the URL.
 */
export function DeviceListView({ landlord }: { landlord: boolean }) {
  useDocumentTitle('Devices');
  const { claims, entity } = useSession();
  const writable = mayChangeDevices(claims?.subtype);
  const base = landlord ? '/sdevices' : '/device';
  const [state, setState] = useDeviceListState();
  const devices = useDevices(landlord, state);
  const [filtersOpen, filtersDrawer] = useDisclosure(false);
  const facets = useDeviceFacets(landlord, filtersOpen);
  const now = useNow();
  useResumeProvisioning();
  const { selected, toggle, setMany, clear } = useSelection();
  const confirmDelete = useConfirmDelete();
  const remove = useDeleteDevice(landlord);
  const removeSelected = useDeleteSelected(landlord);
  const removeAll = useDeleteAllDevices(landlord);
  const [confirmDeleteAll, deleteAllDialog] = useConfirmDeleteAll();
  // Every signed-in role may send commands, so everyone can select; deleting stays with writers.
  const commands = useDeviceListCommands({
    landlord,
    entityFilter: state.entity,
    selected,
    devices: devices.data?.data,
  });
  const rowExtras = useDeviceRowExtras(commands.onCommand);
  // "Select all N matching": the selection is the filter itself, acted on by the server.
  const query = writeListState(state).toString();
  const views = useViewUrl(landlord);
  const matchingAction = useMatchingAction(landlord, query);
  // Switched to the filter it was made for: another filter or view ends it.
  const [matchingQuery, setMatchingQuery] = useState<string | null>(null);
  const matching = matchingQuery === query;
  const clearSelection = () => {
    clear();
    setMatchingQuery(null);
  };
  const pageRows = devices.data?.data ?? [];
  const pageTicked = pageRows.length > 0 && pageRows.every((d) => selected.has(d.name));

  // Deletions or a refresh can leave the page past the end: show the last page instead.
  const total = devices.data?.total;
  const settled = total !== undefined && !devices.isPlaceholderData;
  useEffect(() => {
    if (settled && state.page > lastPage(total, state.size)) {
      // Only when no other change is on its way: `total` belongs to the state on screen.
      setState((s) => (s === state ? { ...s, page: lastPage(total, s.size) } : s));
    }
  }, [settled, total, state, setState]);

  const setFilters = (patch: Partial<DeviceFilters>) => {
    setState((s) => withFilters(s, patch));
    clearSelection();
  };
  const sortBy = (column: DeviceSort) =>
    setState((s) => ({
      ...s,
      page: 1,
      sort: column,
      order: column === s.sort ? (s.order === 'asc' ? 'desc' : 'asc') : firstOrder(column),
    }));

  const onDelete = async (device: Device) => {
    if (await confirmDelete()) remove.mutate(device.name, { onSuccess: () => toggle(device.name, false) });
  };
  const onDeleteSelected = async () => {
    if (selected.size === 0) return notifyWarning('No devices selected');
    if (await confirmDelete())
      removeSelected.mutate([...selected], { onSuccess: ({ deleted }) => setMany(deleted, false) });
  };
  /** Provision selected: a session on each connected selected device (core §4), one after another. */
  const onProvisionSelected = async () => {
    const planned = commands.planSelected();
    if (planned === null) return;
    const plan = planProvisionSelected(planned, commands.deviceOf, Date.now());
    const skipped = provisionSelectedNotice(plan);
    if (skipped !== null) notifyWarning(skipped);
    if (plan.starting > 0) await provisioning.startMany(plan.calls);
  };
  /** Says how many devices go and asks for the entity's name first (the count is read now, filters aside). */
  const onDeleteAll = async () => {
    const count = await countAllDevices(landlord, state.entity).catch((error: unknown) => {
      console.error('Devices not counted:', error);
      return null;
    });
    if (count === null) return;
    const whose = landlord ? state.entity || null : entity;
    if (await confirmDeleteAll({ count, entity: whose })) removeAll.mutate(state.entity, { onSuccess: clear });
  };

  const filtered = hasFilters(state);
  const selectedCount = matching && total !== undefined ? total : selected.size;
  const addButtons = writable && (
    <>
      <Button component={Link} to={`${base}/new`} leftSection={<IconPlus size={16} aria-hidden />}>
        Add Device
      </Button>
      <Button
        component={Link}
        to="/devices/new-multiple"
        variant="default"
        leftSection={<IconFileUpload size={16} aria-hidden />}
      >
        Add Multiple Devices
      </Button>
    </>
  );
  const empty = filtered ? (
    <ListEmpty
      title="No devices match these filters"
      description="Try other filters or another search, or clear them to see every device."
      action={<Button onClick={() => setFilters(NO_FILTERS)}>Clear filters</Button>}
    />
  ) : (
    <ListEmpty
      title="No devices yet"
      description={
        writable
          ? 'Add one device by its ID, or many at once from a CSV file.'
          : 'Devices appear here once an administrator registers them.'
      }
      action={addButtons && <Group gap="sm">{addButtons}</Group>}
    />
  );
  const filterCount = countFilters({ ...state, search: '' });
  // An empty registry has nothing to search, filter or act on: the empty state says what to do.
  const nothingYet = !filtered && devices.data?.total === 0;

  return (
    <>
      <PageHeader
        title="Devices"
        description={landlord ? 'Devices of every entity.' : 'The devices registered to this entity.'}
        actions={addButtons}
      />
      <Group justify="space-between" mb="md" gap="sm" display={nothingYet ? 'none' : undefined}>
        <Group gap="sm">
          <FilterBar
            search={state.search}
            onSearch={(search) => setFilters({ search })}
            filterCount={filterCount}
            filtered={filtered}
            filtersOpen={filtersOpen}
            onOpenFilters={filtersDrawer.open}
            onClear={() => setFilters(NO_FILTERS)}
            refreshing={devices.isFetching && !devices.isPending}
          />
          <ViewsMenu landlord={landlord} query={query} activeId={views.activeId} onApply={views.apply} />
        </Group>
        <Group gap="sm">
          {selectedCount > 0 && (
            <Group gap={4}>
              <Text size="sm" aria-live="polite">
                {selectedCount} device{selectedCount === 1 ? '' : 's'} selected
              </Text>
              <Button variant="subtle" size="compact-sm" onClick={clearSelection}>
                Clear selection
              </Button>
            </Group>
          )}
          <ExportButton landlord={landlord} state={state} />
          <MultiDeviceMenu
            selectedCount={selectedCount}
            writable={writable}
            onCommandSelected={(action) =>
              void (matching ? matchingAction.run(action) : commands.onCommandSelected(action))
            }
            onProvisionSelected={() => void (matching ? matchingAction.run('provision') : onProvisionSelected())}
            onGroupSelected={matching ? () => void matchingAction.run('group') : undefined}
            vibrateAllLabel={commands.vibrateAllLabel}
            onVibrateAll={() => void commands.onVibrateAll()}
            onDeleteSelected={() => void (matching ? matchingAction.run('delete') : onDeleteSelected())}
            onDeleteAll={() => void onDeleteAll()}
            allScope={landlord && state.entity ? `of ${state.entity}` : ''}
            busy={removeSelected.isPending || removeAll.isPending || commands.busy || matchingAction.busy}
          />
        </Group>
      </Group>
      {commands.progressPanel}
      {commands.repliesPanel}
      {matchingAction.panel}
      {total !== undefined && total > pageRows.length && (matching || pageTicked) && (
        <SelectAllBanner
          pageCount={pageRows.length}
          total={total}
          matching={matching}
          onSelectAll={() => setMatchingQuery(query)}
        />
      )}
      <DeviceTable
        landlord={landlord}
        now={now}
        list={{
          devices: devices.data?.data,
          loading: devices.isPending,
          refreshing: devices.isPlaceholderData,
          failed: devices.isError,
          onRetry: () => void devices.refetch(),
          empty,
        }}
        sorting={{ sort: state.sort, order: state.order, onSort: sortBy }}
        selection={{
          selected,
          onSelect: toggle,
          onSelectPage: (on) => setMany(devices.data?.data.map((d) => d.name) ?? [], on),
        }}
        rows={{
          hrefOf: (device) => `${base}/${encodeURIComponent(device.name)}`,
          writable,
          onDelete: (device) => void onDelete(device),
          deleting: remove.isPending ? (remove.variables ?? null) : null,
          busy: commands.commanding,
          ...rowExtras,
        }}
      />
      {devices.data && devices.data.total > 0 && (
        <DevicePagination
          page={state.page}
          size={state.size}
          total={devices.data.total}
          onPage={(page) => setState((s) => ({ ...s, page }))}
          onSize={(size) => setState((s) => ({ ...s, size, page: 1 }))}
        />
      )}
      <DeviceFilterDrawer
        opened={filtersOpen}
        onClose={filtersDrawer.close}
        landlord={landlord}
        value={state}
        choices={facets.data}
        onChange={setFilters}
        onClear={() => setFilters(NO_FILTERS)}
        total={devices.isPlaceholderData ? undefined : total}
      />
      {commands.confirmDialog}
      {matchingAction.dialog}
      {deleteAllDialog}
      <ProvisioningModal />
    </>
  );
}
