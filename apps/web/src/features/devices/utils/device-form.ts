import { DEFAULT_NEW_DEVICE_TYPE } from '@fleet/shared/constants';
import {
  DeviceCreateDocumentSchema,
  DeviceUpdateSetSchema,
  type Device,
  type DeviceCreateDocument,
  type DeviceUpdateSet,
} from '@fleet/shared/schemas/device';
import { MESSAGES } from '@fleet/shared/validation';
import type { FieldErrors } from '@/lib/forms/field-errors.ts';

/** A certificate read from the chosen file. */
export interface CertificateFile {
  fileName: string;
  text: string;
}

/** What the device form holds; text fields are as typed. */
export interface DeviceFormValues {
  name: string;
  description: string;
  group: string;
  version_id: string;
  mac_1: string;
  mac_2: string;
  /** Landlord create only: the entity the device joins. */
  entity: string;
  /** A newly chosen certificate, or null to keep (edit) / send none (create). */
  certificate: CertificateFile | null;
  /** Edit only: remove the certificate on file. */
  removeCertificate: boolean;
}

export type DeviceField =
  'name' | 'description' | 'group' | 'version_id' | 'mac_1' | 'mac_2' | 'entity' | 'X509_certificate';
export const DEVICE_FIELDS: readonly DeviceField[] = [
  'name',
  'description',
  'group',
  'version_id',
  'mac_1',
  'mac_2',
  'entity',
  'X509_certificate',
];

export const EMPTY_DEVICE_FORM: DeviceFormValues = {
  name: '',
  description: '',
  group: '',
  version_id: '',
  mac_1: '',
  mac_2: '',
  entity: '',
  certificate: null,
  removeCertificate: false,
};

/** The form's starting values for editing `device`. */
export function formValuesOf(device: Device): DeviceFormValues {
  return {
    ...EMPTY_DEVICE_FORM,
    name: device.name,
    description: device.description,
    group: device.group ?? '',
    version_id: device.version_id ?? '',
    mac_1: device.mac_1 ?? '',
    mac_2: device.mac_2 ?? '',
    entity: device.entity,
  };
}

const OPTIONAL = ['group', 'version_id', 'mac_1', 'mac_2'] as const;

/**
 * The POST device document (fleet §2, §3): new devices are CC1; empty optional fields are left
 * out; the landlord's plain path needs the entity.
 */
export function buildCreateDocument(values: DeviceFormValues, landlord: boolean): DeviceCreateDocument {
  const document: DeviceCreateDocument = {
    name: values.name.trim(),
    description: values.description.trim(),
    manufacturing_type: DEFAULT_NEW_DEVICE_TYPE,
  };
  for (const key of OPTIONAL) if (values[key].trim() !== '') document[key] = values[key].trim();
  if (values.certificate) document.X509_certificate = values.certificate.text;
  if (landlord) document.entity = values.entity;
  return document;
}

/**
 * The `$set` of a device edit: only what changed, so the unchanged name is dropped (fleet §5)
 * and fields nobody touched are not rewritten. A cleared optional field is sent as null.
 */
export function buildUpdateSet(values: DeviceFormValues, device: Device): DeviceUpdateSet {
  const initial = formValuesOf(device);
  const set: DeviceUpdateSet = {};
  if (values.name.trim() !== device.name) set.name = values.name.trim();
  if (values.description.trim() !== initial.description) set.description = values.description.trim();
  for (const key of OPTIONAL) {
    const value = values[key].trim();
    if (value !== initial[key]) set[key] = value === '' ? null : value;
  }
  if (values.certificate) set.X509_certificate = values.certificate.text;
  else if (values.removeCertificate && device.has_certificate) set.X509_certificate = null;
  return set;
}

function issuesByField(error: { issues: { path: PropertyKey[]; message: string }[] }): FieldErrors<DeviceField> {
  const errors: FieldErrors<DeviceField> = {};
  for (const issue of error.issues) {
    const field = DEVICE_FIELDS.find((f) => f === issue.path[0]);
    if (field) errors[field] ??= issue.message;
  }
  return errors;
}

/** Create validation with the shared schema and the spec's messages (fleet §5). */
export function validateCreate(values: DeviceFormValues, landlord: boolean): FieldErrors<DeviceField> {
  const result = DeviceCreateDocumentSchema.safeParse(buildCreateDocument(values, landlord));
  const errors = result.success ? {} : issuesByField(result.error);
  if (landlord && values.entity === '') errors.entity = MESSAGES.required;
  return errors;
}

/** Edit validation: the same rules on the fields as they will be saved (a required Device ID included). */
export function validateEdit(values: DeviceFormValues, device: Device): FieldErrors<DeviceField> {
  const set = { ...buildUpdateSet(values, device), name: values.name.trim() };
  const result = DeviceUpdateSetSchema.safeParse(set);
  return result.success ? {} : issuesByField(result.error);
}
