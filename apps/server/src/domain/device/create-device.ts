import { MESSAGES } from '@fleet/shared/validation';
import type { DeviceCreateRequestSchema } from '@fleet/shared/schemas/device';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { insertedRow } from '../../db/inserted-row.ts';
import { devices } from '../../db/schema.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.ts';
import { HttpError, invalidField, notFound } from '../../lib/http-error.ts';
import type { Scope } from '../account/account-scope.ts';
import { withoutEntry, type WithEntry } from '../audit/audited.ts';
import { assertKnownEntity } from '../entity/entity-exists.ts';
import { newDeviceSecret } from './device-credentials.ts';
import { assertMayChangeDevices } from './device-policy.ts';
import { inGroup } from '../group/group-room.ts';
import { presentDevice } from './device-scope.ts';

type Document = z.output<typeof DeviceCreateRequestSchema>['document'];

/** Device ids are hardware identities, unique across entities; the answer does not say where it is taken. */
export const deviceTaken = (field = 'document.name') =>
  new HttpError(409, 'This Device ID is already registered', 'Device id taken', {
    [field]: ['This Device ID is already registered'],
  });

/**
 * Registers a device and answers its MQTT credentials, which are shown this once. The device is
 * known whole before its INSERT (its times are the server's), so its audit entry, with that
 * after-state, goes in the same statement (`withEntry`, auditedStatement).
 */
export async function createDevice(
  db: Executor,
  actor: AccessClaims,
  scope: Scope,
  doc: Document,
  withEntry: WithEntry = withoutEntry,
) {
  assertMayChangeDevices(actor);
  const entity = scope ?? doc.entity;
  if (!entity) throw invalidField('document.entity', MESSAGES.required);
  if (scope === null) await assertKnownEntity(db, entity, 'document.entity');
  const secret = newDeviceSecret();
  try {
    const now = new Date();
    const values = insertedRow(devices, {
      name: doc.name,
      entity,
      description: doc.description,
      group: doc.group ?? null,
      manufacturing_type: doc.manufacturing_type,
      version_id: doc.version_id ?? null,
      mac_1: doc.mac_1 ?? null,
      mac_2: doc.mac_2 ?? null,
      x509_certificate: doc.X509_certificate ?? null,
      mqtt_secret_hash: secret.hash,
      created_at: now,
      updated_at: now,
    });
    const created = { ...presentDevice(values), mqtt: { username: doc.name, password: secret.password } };
    // A device created into a group takes one of its places (fleet §2: the Groups select).
    await inGroup(db, entity, doc.group, doc.name, 'document.group', (tx) =>
      withEntry(tx, { entity, after: created }).insert(devices).values(values),
    );
    return created;
  } catch (err) {
    if (isUniqueViolation(err)) throw deviceTaken();
    // The landlord may name any entity in the path; one that does not exist is not found.
    if (isForeignKeyViolation(err)) throw notFound('Entity');
    throw err;
  }
}
