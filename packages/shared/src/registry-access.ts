import type { Subtype } from './constants.ts';

/**
 * Who changes the device registry, beacon configurations, files and firmware: superadmins, admins
 * and developers; operators and infra only read them (docs/decisions.md). The server enforces it
 * (403); the console hides what it would refuse.
 */
const REGISTRY_WRITERS: readonly Subtype[] = ['sadmin', 'admin', 'developer'];

const isWriter = (subtype: Subtype | undefined) => subtype !== undefined && REGISTRY_WRITERS.includes(subtype);

/** May add, edit and delete devices and give them new credentials. */
export const mayChangeDevices = isWriter;

/** May add, edit and delete beacon configurations (those who change the device registry). */
export const mayChangeBeacons = isWriter;

/** May upload and delete files and firmware; every role lists them. */
export const mayChangeFiles = isWriter;
