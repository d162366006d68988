import { KioskSchema } from '@fleet/shared/schemas/kiosk';
import { namedResource } from './named-resource.ts';

/** tenant/{entity}/kiosk (fleet §7). */
export const kiosksApi = namedResource('kiosk', KioskSchema);
