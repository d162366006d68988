import type { ProvisionBusEvent } from '../../lib/bus.ts';
import type { FileState, SessionState, Step } from './session-machine.ts';

/** What the steps applied to one session since its last write decided, to be written in one go. */
export interface SessionChange {
  /** The session as the steps left it. */
  state: SessionState;
  /** The device's state before the session, given back when it ends. */
  prior_state: string | null;
  /** Files changed, by device path, as they are now. */
  files: Map<string, FileState>;
  heard: boolean;
  ended: boolean;
  /** The device's download line: set, cleared (null), or left (undefined). */
  download?: string | null;
  events: ProvisionBusEvent[];
}

/** A session with nothing to write yet. */
export const unchanged = (state: SessionState, prior_state: string | null): SessionChange => ({
  state,
  prior_state,
  files: new Map(),
  heard: false,
  ended: state.ended,
  events: [],
});

/** Adds a step's decisions to what the session has to write. */
export function record(c: SessionChange, step: Step): void {
  c.state = step.state;
  for (const f of step.changed) c.files.set(f.device_path, f);
  c.events.push(...step.events);
  if (step.heard) c.heard = true;
  if (step.ended) c.ended = true;
  if (step.download !== undefined) c.download = step.download;
}

/** Hands over what is to be written and starts afresh: the change as it is, and the session with nothing to write. */
export function takeChange(c: SessionChange): SessionChange {
  const taken = { ...c };
  Object.assign(c, unchanged(c.state, c.prior_state));
  delete c.download;
  return taken;
}
