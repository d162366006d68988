import { eq, sql } from 'drizzle-orm';
import { checkAlertRule, type AlertRule, type AlertRuleUpdateSchema } from '@fleet/shared/schemas/alert';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { alertRules } from '../../db/schema/alerts.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { presentRule } from './present-rule.ts';
import { assertScopeExists, findRule, nameTaken } from './rule-scope.ts';

/**
 * Changes a rule (not its kind), audited with before and after. Open alerts keep going under the
 * changed rule: its new delays and threshold apply from the next evaluation.
 */
export async function updateRule(
  db: Db,
  ctx: AuditContext,
  entity: string,
  id: string,
  body: z.output<typeof AlertRuleUpdateSchema>,
): Promise<AlertRule> {
  const entry = { action: 'alert_rule.update', entity, target: { type: 'alert_rule', name: id } } as const;
  let before: AlertRule | undefined;
  const complete = (after: AlertRule) => ({ before, after, target: { type: 'alert_rule', name: after.name } as const });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    const current = await findRule(tx, entity, id);
    before = presentRule(current);
    const merged = { ...current, ...body.operator.$set };
    const checked = checkAlertRule(merged);
    if (!checked.success) {
      const details: Record<string, string[]> = {};
      for (const i of checked.error.issues) (details[`operator.$set.${i.path.join('.')}`] ??= []).push(i.message);
      throw new HttpError(400, checked.error.issues[0]?.message ?? 'Invalid rule', 'Invalid alert rule', details);
    }
    await assertScopeExists(tx, entity, merged);
    try {
      const [row] = await tx
        .update(alertRules)
        .set({ ...body.operator.$set, updated_at: sql`now()` })
        .where(eq(alertRules.id, current.id))
        .returning();
      return presentRule(row!);
    } catch (err) {
      return nameTaken(err);
    }
  });
}
