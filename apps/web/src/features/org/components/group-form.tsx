import type { ReactNode } from 'react';
import { SimpleGrid, TextInput, Textarea } from '@mantine/core';
import { MESSAGES } from '@fleet/shared/messages';
import type { Group } from '@fleet/shared/schemas/group';
import { groupsApi } from '../api/groups.ts';
import { kiosksApi } from '../api/kiosks.ts';
import { sitesApi } from '../api/sites.ts';
import { saveDocument } from '../hooks/save-document.ts';
import { useOrgForm } from '../hooks/use-org-form.ts';
import { infoErrors, infoText, nameError, orNull } from '../utils/org-rules.ts';
import { FormFrame } from './form-frame.tsx';
import { InfoFields } from './info-fields.tsx';
import { NamedSelect } from './named-select.tsx';

type GroupField =
  | 'name'
  | 'description'
  | 'capacity'
  | 'kiosk'
  | 'site'
  | 'allocinfo'
  | 'globalinfo'
  | 'unallocinfo'
  | 'networkinfo'
  | 'configuration';

function valuesOf(group?: Group): Record<GroupField, string> {
  return {
    name: group?.name ?? '',
    description: group?.description ?? '',
    capacity: group?.capacity === null || group?.capacity === undefined ? '' : String(group.capacity),
    kiosk: group?.kiosk ?? '',
    site: group?.location.site ?? '',
    allocinfo: infoText(group?.allocinfo),
    globalinfo: infoText(group?.globalinfo),
    unallocinfo: infoText(group?.unallocinfo),
    networkinfo: '',
    configuration: '',
  };
}

function validate(v: Record<GroupField, string>) {
  const capacity = v.capacity.trim();
  return {
    name: nameError(v.name),
    capacity:
      capacity === '' || (/^\d+$/.test(capacity) && +capacity >= 1 && +capacity <= 100_000)
        ? undefined
        : MESSAGES.capacity,
    ...infoErrors({ allocinfo: v.allocinfo, globalinfo: v.globalinfo, unallocinfo: v.unallocinfo }),
  };
}

/** The request fields; the site (edit only) joins the group's location, whose coordinates default from it. */
function documentOf(v: Record<GroupField, string>, group: Group | undefined, siteGps: [number, number] | null) {
  const doc: Record<string, unknown> = {
    name: v.name.trim(),
    description: v.description.trim(),
    capacity: v.capacity.trim() === '' ? null : Number(v.capacity),
    kiosk: orNull(v.kiosk),
    allocinfo: orNull(v.allocinfo),
    globalinfo: orNull(v.globalinfo),
    unallocinfo: orNull(v.unallocinfo),
  };
  if (group) {
    doc.location = {
      site: orNull(v.site),
      floor: group.location.floor,
      gps_coordinates: group.location.gps_coordinates ?? (v.site ? siteGps : null),
    };
  }
  return doc;
}

interface GroupFormProps {
  group?: Group;
  readOnly?: boolean;
  onSaved(): void;
  onCancel(): void;
  /** Issue 11 hangs the Files and Firmwares buttons here on the edit screen. */
  actions?: ReactNode;
}

/**
 * Group (dispenser) create and edit (fleet §2): Name, Description, Capacity, Kiosk and the JSON
 * infos; edit adds the Sites select. Capacity and Kiosk are ours: the list shows Capacity and the
 * return screen a group's kiosk, so they must be set somewhere (docs/decisions.md).
 */
export function GroupForm({ group, readOnly, onSaved, onCancel, actions }: GroupFormProps) {
  const form = useOrgForm(valuesOf(group), validate);
  const kiosks = kiosksApi.useList({ notify: false });
  const sites = sitesApi.useList({ notify: false, enabled: group !== undefined });
  const create = groupsApi.useCreate();
  const update = groupsApi.useUpdate(group?.name ?? '');
  const siteGps = (name: string) => sites.data?.find((s) => s.name === name)?.gps_coordinates ?? null;

  const submit = () => {
    if (!form.check()) return;
    saveDocument({
      what: 'Group',
      save: group ? update : create,
      doc: documentOf(form.values, group, siteGps(form.values.site)),
      before: group && documentOf(valuesOf(group), group, siteGps(group.location.site ?? '')),
      onSaved,
      showServerErrors: form.showServerErrors,
    });
  };

  return (
    <FormFrame
      saving={create.isPending || update.isPending}
      readOnly={readOnly}
      onSubmit={submit}
      onCancel={onCancel}
      actions={actions}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput
          label="Name"
          withAsterisk={!readOnly}
          maxLength={64}
          autoFocus={!group}
          {...form.text('name', readOnly)}
        />
        <TextInput
          label="Capacity"
          description="Most devices the group holds; empty: no limit"
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          inputMode="numeric"
          {...form.text('capacity', readOnly)}
        />
        <NamedSelect
          label="Kiosk"
          what="kiosks"
          choices={kiosks.data}
          loading={kiosks.isPending}
          failed={kiosks.isError}
          value={form.values.kiosk}
          error={form.errors.kiosk}
          readOnly={readOnly}
          onChange={(name) => form.set('kiosk', name)}
        />
        {group && (
          <NamedSelect
            label="Sites"
            what="sites"
            choices={sites.data}
            loading={sites.isPending}
            failed={sites.isError}
            value={form.values.site}
            error={form.errors.site}
            readOnly={readOnly}
            onChange={(name) => form.set('site', name)}
          />
        )}
      </SimpleGrid>
      <Textarea
        label="Description"
        autosize
        minRows={2}
        maxRows={5}
        maxLength={500}
        {...form.text('description', readOnly)}
      />
      <InfoFields form={form} fields={['allocinfo', 'globalinfo', 'unallocinfo']} readOnly={readOnly} />
    </FormFrame>
  );
}
