import type { AlertRule, AlertRuleCreateSchema } from '@fleet/shared/schemas/alert';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { alertRules } from '../../db/schema/alerts.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { presentRule } from './present-rule.ts';
import { assertScopeExists, nameTaken } from './rule-scope.ts';

/** Creates an alert rule in the entity (its scope must exist there), audited. */
export async function createRule(
  db: Db,
  ctx: AuditContext,
  entity: string,
  body: z.output<typeof AlertRuleCreateSchema>,
): Promise<AlertRule> {
  const doc = body.document;
  const entry = { action: 'alert_rule.create', entity, target: { type: 'alert_rule', name: doc.name } } as const;
  return audited(db, ctx, { ...entry, complete: (after: AlertRule) => ({ after }) }, async (tx) => {
    await assertScopeExists(tx, entity, doc);
    try {
      const [row] = await tx
        .insert(alertRules)
        .values({ ...doc, entity })
        .returning();
      return presentRule(row!);
    } catch (err) {
      return nameTaken(err);
    }
  });
}
