import { MESSAGES } from '@fleet/shared/validation';
import type { Device } from '@fleet/shared/schemas/device';
import { describe, expect, it } from 'vitest';
import { readCertificate } from './certificate-file.ts';
import {
  EMPTY_DEVICE_FORM,
  buildCreateDocument,
  buildUpdateSet,
  formValuesOf,
  validateCreate,
  validateEdit,
} from './device-form.ts';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

const DEVICE: Device = {
  name: '240ac40a2e48',
  description: 'Lobby',
  entity: 'acme',
  group: null,
  manufacturing_type: 'CC1',
  version_id: '1.0',
  mac_1: null,
  mac_2: null,
  has_certificate: true,
  fw_version: null,
  state: { current: null },
  battery: null,
  is_charging: null,
  last_dispenser: null,
  current_provision: null,
  current_download: null,
  created_at: '2026-11-22T10:00:00Z',
  updated_at: '2026-11-22T10:00:00Z',
  online: true,
};

describe('device create', () => {
  it('gives the spec messages for the Device ID, Lora DevEUI and LTE IMSI', () => {
    const values = { ...EMPTY_DEVICE_FORM, name: '240AC', mac_1: '12', mac_2: '12a' };
    expect(validateCreate(values, false)).toEqual({
      name: MESSAGES.deviceId,
      mac_1: MESSAGES.loraDevEui,
      mac_2: MESSAGES.lteImsi,
    });
    expect(validateCreate(EMPTY_DEVICE_FORM, false)).toEqual({ name: MESSAGES.required });
  });

  it('needs an entity on the landlord form', () => {
    expect(validateCreate({ ...EMPTY_DEVICE_FORM, name: '240ac40a2e48' }, true)).toEqual({ entity: MESSAGES.required });
  });

  it('checks the groups text as an api name', () => {
    expect(validateCreate({ ...EMPTY_DEVICE_FORM, name: '240ac40a2e48', group: 'hall a' }, false)).toEqual({
      group: MESSAGES.apiName,
    });
  });

  it('sends CC1, trims, and leaves out empty optional fields', () => {
    const values = {
      ...EMPTY_DEVICE_FORM,
      name: ' 240ac40a2e48 ',
      description: 'Lobby',
      mac_2: '23432',
      entity: 'acme',
      certificate: { fileName: 'a.pem', text: PEM },
    };
    expect(buildCreateDocument(values, false)).toEqual({
      name: '240ac40a2e48',
      description: 'Lobby',
      manufacturing_type: 'CC1',
      mac_2: '23432',
      X509_certificate: PEM,
    });
    expect(buildCreateDocument(values, true)).toMatchObject({ entity: 'acme' });
    expect(validateCreate(values, true)).toEqual({});
  });
});

describe('device edit', () => {
  it('sends only what changed and drops the unchanged name', () => {
    const values = { ...formValuesOf(DEVICE), description: 'Lobby east', version_id: '', group: 'hall_a' };
    expect(buildUpdateSet(values, DEVICE)).toEqual({ description: 'Lobby east', version_id: null, group: 'hall_a' });
    expect(buildUpdateSet(formValuesOf(DEVICE), DEVICE)).toEqual({});
  });

  it('sends a new name, a new certificate, or the removal of the one on file', () => {
    expect(buildUpdateSet({ ...formValuesOf(DEVICE), name: '240ac40a2e49' }, DEVICE)).toEqual({ name: '240ac40a2e49' });
    expect(buildUpdateSet({ ...formValuesOf(DEVICE), removeCertificate: true }, DEVICE)).toEqual({
      X509_certificate: null,
    });
  });

  it('validates the Device ID even when unchanged fields are left out', () => {
    expect(validateEdit({ ...formValuesOf(DEVICE), name: '' }, DEVICE)).toEqual({ name: MESSAGES.required });
    expect(validateEdit({ ...formValuesOf(DEVICE), name: 'xyz' }, DEVICE)).toEqual({ name: MESSAGES.deviceId });
    expect(validateEdit(formValuesOf(DEVICE), DEVICE)).toEqual({});
  });
});

describe('readCertificate', () => {
  it('reads a .pem or .pub file as text', async () => {
    expect(await readCertificate(new File([PEM], 'device.pem'))).toEqual({
      value: { fileName: 'device.pem', text: PEM },
    });
  });

  it('refuses other types and files over 100000 bytes with the spec message', async () => {
    expect(await readCertificate(new File([PEM], 'device.txt'))).toEqual({
      error: 'Only .pem or .pub files are accepted.',
    });
    expect(await readCertificate(new File(['x'.repeat(100_001)], 'big.pub'))).toEqual({
      error: 'File is too big. Only files up to 100000 Bytes are allowed.',
    });
    expect(await readCertificate(new File(['x'.repeat(100_000)], 'ok.pub'))).toHaveProperty('value');
  });
});
