import type { Db } from '../../db/client.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { transition } from './rollout-transition.ts';

/**
 * `resume`: a paused rollout runs again. The error threshold pauses it again only on a new
 * failure; a stage that ended under the success threshold moves on (docs/rollouts.md).
 */
export const resumeRollout = (db: Db, audit: AuditContext, entity: string, id: string) =>
  transition(db, audit, entity, id, {
    action: 'resume',
    from: ['paused'],
    set: () => ({ state: 'running', pause_reason: null }),
  });
