import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { transition } from './rollout-transition.ts';

/** `approve`: a rollout waiting for approval moves to its next stage and runs. */
export const approveRollout = (db: Db, audit: AuditContext, entity: string, id: string) =>
  transition(db, audit, entity, id, {
    action: 'approve',
    from: ['awaiting_approval'],
    set: () => ({ state: 'running', current_stage: sql`current_stage + 1` }),
  });
