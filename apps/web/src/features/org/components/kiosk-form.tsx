import type { ReactNode } from 'react';
import { SimpleGrid, TextInput, Textarea } from '@mantine/core';
import type { Kiosk } from '@fleet/shared/schemas/kiosk';
import { kiosksApi } from '../api/kiosks.ts';
import { sitesApi } from '../api/sites.ts';
import { saveDocument } from '../hooks/save-document.ts';
import { useOrgForm } from '../hooks/use-org-form.ts';
import { coordinateErrors, coordinatesOf, floorFieldError, nameError, orNull } from '../utils/org-rules.ts';
import { CoordinateFields } from './coordinate-fields.tsx';
import { FormFrame } from './form-frame.tsx';
import { NamedSelect } from './named-select.tsx';

type KioskField = 'name' | 'description' | 'site' | 'floor' | 'latitude' | 'longitude';

function valuesOf(kiosk?: Kiosk): Record<KioskField, string> {
  const gps = kiosk?.location.gps_coordinates;
  return {
    name: kiosk?.name ?? '',
    description: kiosk?.description ?? '',
    site: kiosk?.location.site ?? '',
    floor: kiosk?.location.floor === null || kiosk?.location.floor === undefined ? '' : String(kiosk.location.floor),
    latitude: gps ? String(gps[0]) : '',
    longitude: gps ? String(gps[1]) : '',
  };
}

/** Fleet §5: api-name, numeric floor, coordinates required only without a site. */
function validate(v: Record<KioskField, string>) {
  return {
    name: nameError(v.name),
    floor: floorFieldError(v.floor),
    ...coordinateErrors(v.latitude, v.longitude, v.site === ''),
  };
}

function documentOf(v: Record<KioskField, string>) {
  return {
    name: v.name.trim(),
    description: v.description.trim(),
    location: {
      site: orNull(v.site),
      floor: v.site ? null : orNull(v.floor),
      gps_coordinates: coordinatesOf(v.latitude, v.longitude),
    },
  };
}

interface KioskFormProps {
  kiosk?: Kiosk;
  readOnly?: boolean;
  onSaved(): void;
  onCancel(): void;
  actions?: ReactNode;
}

/**
 * Kiosk create and edit (fleet §2): Name, Description, optional Site, coordinates, floor (disabled
 * when a site is chosen). Choosing a site fills empty coordinates from the site's GPS.
 */
export function KioskForm({ kiosk, readOnly, onSaved, onCancel, actions }: KioskFormProps) {
  const form = useOrgForm(valuesOf(kiosk), validate);
  const sites = sitesApi.useList({ notify: false });
  const create = kiosksApi.useCreate();
  const update = kiosksApi.useUpdate(kiosk?.name ?? '');

  const chooseSite = (name: string) => {
    const site = sites.data?.find((s) => s.name === name);
    const empty = form.values.latitude.trim() === '' && form.values.longitude.trim() === '';
    form.setMany({
      site: name,
      ...(name ? { floor: '' } : {}),
      ...(site && empty
        ? { latitude: String(site.gps_coordinates[0]), longitude: String(site.gps_coordinates[1]) }
        : {}),
    });
  };

  const submit = () => {
    if (!form.check()) return;
    saveDocument({
      what: 'Kiosk',
      save: kiosk ? update : create,
      doc: documentOf(form.values),
      before: kiosk && documentOf(valuesOf(kiosk)),
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
          autoFocus={!kiosk}
          {...form.text('name', readOnly)}
        />
        <NamedSelect
          label="Site"
          what="sites"
          choices={sites.data}
          loading={sites.isPending}
          failed={sites.isError}
          value={form.values.site}
          error={form.errors.site}
          readOnly={readOnly}
          onChange={chooseSite}
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
      <CoordinateFields form={form} required={form.values.site === ''} readOnly={readOnly} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput
          label="Floor"
          description={
            form.values.site ? 'The site decides where the kiosk is' : 'A whole number; basements are negative'
          }
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          inputMode="numeric"
          disabled={form.values.site !== ''}
          {...form.text('floor', readOnly)}
        />
      </SimpleGrid>
    </FormFrame>
  );
}
