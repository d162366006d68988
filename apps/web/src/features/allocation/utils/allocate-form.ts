import { MESSAGES } from '@fleet/shared/validation';
import { parseJsonText } from '@fleet/shared/org-rules';
import type { AllocateRequest } from '@fleet/shared/schemas/allocation';

/** The allocate screen's values: the user ID, each dataview's checkbox and JSON text, the network info. */
export interface AllocateValues {
  visitor: string;
  /** Dataview name → its JSON text, for the checked ones only. */
  apps: Record<string, string>;
  network: string;
}

export interface AllocateErrors {
  visitor?: string;
  network?: string;
  /** Dataview name → its message. */
  apps: Record<string, string>;
}

const API_NAME = /^[A-Za-z0-9_]+$/;

/**
 * Checks the form (fleet §5): the user ID is required and an api-name; each checked dataview's
 * JSON and the network info must parse ('Is not valid JSON'). Answers the errors and, when there
 * are none, the allocation payload (fleet §3: apps as parsed JSON, '{}' for an empty one).
 */
export function checkAllocation(
  values: AllocateValues,
  device: string,
): { errors: AllocateErrors; request: AllocateRequest | null } {
  const errors: AllocateErrors = { apps: {} };
  const visitor = values.visitor.trim();
  if (visitor === '') errors.visitor = MESSAGES.required;
  else if (!API_NAME.test(visitor)) errors.visitor = MESSAGES.apiName;
  const apps: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(values.apps)) {
    const parsed = parseJsonText(text);
    if (!parsed.ok) errors.apps[name] = parsed.error;
    else apps[name] = parsed.value ?? {};
  }
  const network = parseJsonText(values.network);
  if (!network.ok) errors.network = network.error;
  const valid = !errors.visitor && !errors.network && Object.keys(errors.apps).length === 0;
  if (!valid) return { errors, request: null };
  const request: AllocateRequest = { visitor, device, apps };
  if (network.ok && network.value !== null) request.network = network.value;
  return { errors, request };
}
