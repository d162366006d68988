import type { ReactNode } from 'react';
import { SimpleGrid, Stack, TextInput, Textarea, Title } from '@mantine/core';
import type { Site } from '@fleet/shared/schemas/site';
import { sitesApi } from '../api/sites.ts';
import { saveDocument } from '../hooks/save-document.ts';
import { useOrgForm } from '../hooks/use-org-form.ts';
import {
  coordinateErrors,
  coordinatesOf,
  infoErrors,
  infoText,
  nameError,
  numberError,
  orNull,
} from '../utils/org-rules.ts';
import { CoordinateFields } from './coordinate-fields.tsx';
import { FormFrame } from './form-frame.tsx';
import { InfoFields } from './info-fields.tsx';

const ADDRESS = [
  ['street', 'Street'],
  ['number', 'Number'],
  ['postalcode', 'Postal Code'],
  ['city', 'City'],
  ['region', 'Region'],
  ['country', 'Country'],
] as const;
type AddressKey = (typeof ADDRESS)[number][0];
type SiteField =
  | 'name'
  | 'description'
  | 'allocinfo'
  | 'globalinfo'
  | 'unallocinfo'
  | AddressKey
  | 'latitude'
  | 'longitude'
  | 'networkinfo'
  | 'configuration';

function valuesOf(site?: Site): Record<SiteField, string> {
  return {
    name: site?.name ?? '',
    description: site?.description ?? '',
    allocinfo: infoText(site?.allocinfo),
    globalinfo: infoText(site?.globalinfo),
    unallocinfo: infoText(site?.unallocinfo),
    networkinfo: infoText(site?.networkinfo),
    configuration: '',
    street: site?.address.street ?? '',
    number: site?.address.number ?? '',
    postalcode: site?.address.postalcode ?? '',
    city: site?.address.city ?? '',
    region: site?.address.region ?? '',
    country: site?.address.country ?? '',
    latitude: site ? String(site.gps_coordinates[0]) : '',
    longitude: site ? String(site.gps_coordinates[1]) : '',
  };
}

/** The fleet §5 rules of a site: api-name, numeric street number, required coordinates, JSON infos. */
function validate(v: Record<SiteField, string>) {
  return {
    name: nameError(v.name),
    number: numberError(v.number),
    ...coordinateErrors(v.latitude, v.longitude, true),
    ...infoErrors({ allocinfo: v.allocinfo, globalinfo: v.globalinfo, unallocinfo: v.unallocinfo }),
  };
}

function documentOf(v: Record<SiteField, string>) {
  return {
    name: v.name.trim(),
    description: v.description.trim(),
    address: Object.fromEntries(ADDRESS.map(([key]) => [key, v[key].trim()])),
    gps_coordinates: coordinatesOf(v.latitude, v.longitude),
    allocinfo: orNull(v.allocinfo),
    globalinfo: orNull(v.globalinfo),
    unallocinfo: orNull(v.unallocinfo),
  };
}

interface SiteFormProps {
  site?: Site;
  readOnly?: boolean;
  onSaved(): void;
  onCancel(): void;
  /** Issue 11 hangs the Files and Firmwares buttons here on the edit screen. */
  actions?: ReactNode;
}

/** Site create and edit (fleet §2): Name, Description, the JSON infos, address and coordinates. */
export function SiteForm({ site, readOnly, onSaved, onCancel, actions }: SiteFormProps) {
  const form = useOrgForm(valuesOf(site), validate);
  const create = sitesApi.useCreate();
  const update = sitesApi.useUpdate(site?.name ?? '');
  const saving = create.isPending || update.isPending;

  const submit = () => {
    if (!form.check()) return;
    saveDocument({
      what: 'Site',
      save: site ? update : create,
      doc: documentOf(form.values),
      before: site && documentOf(valuesOf(site)),
      onSaved,
      showServerErrors: form.showServerErrors,
    });
  };

  return (
    <FormFrame saving={saving} readOnly={readOnly} onSubmit={submit} onCancel={onCancel} actions={actions}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput
          label="Name"
          withAsterisk={!readOnly}
          maxLength={64}
          autoFocus={!site}
          {...form.text('name', readOnly)}
        />
      </SimpleGrid>
      <Textarea
        label="Description"
        autosize
        minRows={2}
        maxRows={5}
        maxLength={500}
        {...form.text('description', readOnly)}
      />
      <Stack gap="sm">
        <Title order={2} size="h5">
          Address
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          {ADDRESS.map(([key, label]) => (
            <TextInput
              key={key}
              label={label}
              maxLength={200}
              inputMode={key === 'number' ? 'numeric' : undefined}
              {...form.text(key, readOnly)}
            />
          ))}
        </SimpleGrid>
      </Stack>
      <CoordinateFields form={form} required readOnly={readOnly} />
      <InfoFields form={form} fields={['allocinfo', 'globalinfo', 'unallocinfo']} readOnly={readOnly} />
    </FormFrame>
  );
}
