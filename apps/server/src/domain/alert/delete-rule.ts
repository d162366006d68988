import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { alertRules } from '../../db/schema/alerts.ts';
import type { Bus } from '../../lib/bus.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { presentRule } from './present-rule.ts';
import { findRule } from './rule-scope.ts';

/** Deletes a rule with its alerts (history included), audited; the header counts follow. */
export async function deleteRule(db: Db, bus: Bus, ctx: AuditContext, entity: string, id: string): Promise<void> {
  const entry = { action: 'alert_rule.delete', entity, target: { type: 'alert_rule', name: id } } as const;
  await audited(
    db,
    ctx,
    { ...entry, complete: (before: ReturnType<typeof presentRule>) => ({ before }) },
    async (tx) => {
      const current = await findRule(tx, entity, id);
      await tx.delete(alertRules).where(eq(alertRules.id, current.id));
      return presentRule(current);
    },
  );
  await bus.publish('alerts.changed', { entities: [entity] });
}
