import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { transition } from './rollout-transition.ts';

/** `cancel`: nothing new is sent, ever; devices in flight finish and are still counted. */
export const cancelRollout = (db: Db, audit: AuditContext, entity: string, id: string) =>
  transition(db, audit, entity, id, {
    action: 'cancel',
    from: ['draft', 'running', 'paused', 'awaiting_approval'],
    set: () => ({ state: 'cancelled', finished_at: sql`now()` }),
  });
