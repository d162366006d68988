import type { Db } from '../../db/client.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { transition } from './rollout-transition.ts';

/** `pause`: nothing new is sent until it resumes; devices in flight finish. */
export const pauseRollout = (db: Db, audit: AuditContext, entity: string, id: string, actor: string) =>
  transition(db, audit, entity, id, {
    action: 'pause',
    from: ['running', 'awaiting_approval'],
    set: () => ({ state: 'paused', pause_reason: `Paused by ${actor}` }),
  });
