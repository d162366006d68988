import { ProvisionAnswerSchema, type ProvisionAnswer } from '@fleet/shared/provision';
import { api } from '@/lib/api/api.ts';
import { tenantPath } from '@/lib/api/api-client.ts';

/** `tenant/{entity}/provision/{device}[/…]` (core §7), for the device's own entity. */
export const provisionPath = (entity: string, device: string, tail = '') =>
  tenantPath(entity, `provision/${encodeURIComponent(device)}${tail}`);

/** POST provision/{device}: starts a session; the API client shows a refusal's notice. */
export function startProvisioning(entity: string, device: string): Promise<ProvisionAnswer> {
  return api.post(provisionPath(entity, device), undefined, { parse: (d) => ProvisionAnswerSchema.parse(d) });
}

/** POST provision/{device}/cancel; the caller words a failure ('Cancel Failed'). */
export function cancelProvisioning(entity: string, device: string): Promise<ProvisionAnswer> {
  return api.post(provisionPath(entity, device, '/cancel'), undefined, {
    notify: false,
    parse: (d) => ProvisionAnswerSchema.parse(d),
  });
}

/** GET provision/{device}: the newest session (to know whether a found session still runs). */
export function getProvisioning(entity: string, device: string): Promise<ProvisionAnswer> {
  return api.get(provisionPath(entity, device), { notify: false, parse: (d) => ProvisionAnswerSchema.parse(d) });
}
