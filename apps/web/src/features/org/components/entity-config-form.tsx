import type { ReactNode } from 'react';
import { Select, SimpleGrid, TextInput, Textarea } from '@mantine/core';
import { LICENSE_TIERS } from '@fleet/shared/constants';
import type { EntityConfig } from '@fleet/shared/schemas/entity-config';
import { useSaveEntityConfig } from '../api/entity-config.ts';
import { saveDocument } from '../hooks/save-document.ts';
import { useOrgForm } from '../hooks/use-org-form.ts';
import { infoErrors, infoText, orNull } from '../utils/org-rules.ts';
import { FormFrame } from './form-frame.tsx';
import { InfoFields } from './info-fields.tsx';

type ConfigField =
  | 'description'
  | 'allocinfo'
  | 'globalinfo'
  | 'unallocinfo'
  | 'networkinfo'
  | 'configuration'
  | 'devicePath'
  | 'license_tier';

function valuesOf(config: EntityConfig): Record<ConfigField, string> {
  return {
    description: config.description,
    allocinfo: infoText(config.allocinfo),
    globalinfo: infoText(config.globalinfo),
    unallocinfo: infoText(config.unallocinfo),
    networkinfo: infoText(config.networkinfo),
    configuration: '',
    devicePath: config.devicePath,
    license_tier: config.license_tier,
  };
}

const validate = (v: Record<ConfigField, string>) =>
  infoErrors({
    allocinfo: v.allocinfo,
    globalinfo: v.globalinfo,
    unallocinfo: v.unallocinfo,
    networkinfo: v.networkinfo,
  });

function setOf(v: Record<ConfigField, string>) {
  return {
    description: v.description.trim(),
    allocinfo: orNull(v.allocinfo),
    globalinfo: orNull(v.globalinfo),
    unallocinfo: orNull(v.unallocinfo),
    networkinfo: orNull(v.networkinfo),
    devicePath: v.devicePath.trim(),
    license_tier: v.license_tier,
  };
}

interface EntityConfigFormProps {
  config: EntityConfig;
  readOnly: boolean;
  /** Save and Cancel both return home (fleet §2). */
  onDone(): void;
  /** Issue 11 hangs the File and Firmware buttons here. */
  actions?: ReactNode;
}

/**
 * Entity config edit (fleet §2): Name (read-only), Description, the JSON infos (typed or loaded
 * from a .json file), devicePath and license_tier. A failed save re-enables the form (fleet §4).
 */
export function EntityConfigForm({ config, readOnly, onDone, actions }: EntityConfigFormProps) {
  const form = useOrgForm(valuesOf(config), validate);
  const save = useSaveEntityConfig(config.name);
  const submit = () => {
    if (!form.check()) return;
    saveDocument({
      what: 'Entity config',
      save,
      doc: setOf(form.values),
      before: setOf(valuesOf(config)),
      onSaved: onDone,
      showServerErrors: form.showServerErrors,
    });
  };

  return (
    <FormFrame saving={save.isPending} readOnly={readOnly} onSubmit={submit} onCancel={onDone} actions={actions}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput label="Name" value={config.name} readOnly variant="filled" />
        <Select
          label="license_tier"
          data={[...LICENSE_TIERS]}
          allowDeselect={false}
          readOnly={readOnly}
          value={form.values.license_tier}
          error={form.errors.license_tier}
          onChange={(tier) => tier && form.set('license_tier', tier)}
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
      <InfoFields form={form} fields={['allocinfo', 'globalinfo', 'unallocinfo', 'networkinfo']} readOnly={readOnly} />
      <TextInput
        label="devicePath"
        description="Where files land on the devices, e.g. /data"
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        maxLength={255}
        {...form.text('devicePath', readOnly)}
      />
    </FormFrame>
  );
}
