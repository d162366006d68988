import type { Subtype } from './constants.ts';
import { mayChange } from './access/rule.ts';

/**
 * Who changes the device registry, beacon configurations, files and firmware: the shared rule
 * (access/rule.ts) by subtype; operators and infra only read them. The server enforces it (403);
 * the console hides what it would refuse.
 */
const bySubtype = (area: 'devices' | 'beacons' | 'files') => (subtype: Subtype | undefined) =>
  subtype !== undefined && mayChange({ subtype, permissions: [] }, area);

/** May add, edit and delete devices and give them new credentials. */
export const mayChangeDevices = bySubtype('devices');

/** May add, edit and delete beacon configurations (those who change the device registry). */
export const mayChangeBeacons = bySubtype('beacons');

/** May upload and delete files and firmware; every role lists them. */
export const mayChangeFiles = bySubtype('files');
