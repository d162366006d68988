import { SiteSchema } from '@fleet/shared/schemas/site';
import { namedResource } from './named-resource.ts';

/** tenant/{entity}/site (fleet §7). */
export const sitesApi = namedResource('site', SiteSchema);
