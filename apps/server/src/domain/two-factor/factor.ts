import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { accountTotp, totpRecoveryCodes, totpRequirements } from '../../db/schema.ts';
import { hashToken } from '../../lib/tokens.ts';
import { matchStep, normaliseRecoveryCode } from './totp.ts';

/** The account fields the second factor looks at. */
export interface FactorAccount {
  id: string;
  name: string;
  subtype: string;
  entity: string | null;
}

/** The requirement's scope for an account: its entity's admins, or '' for the superadmins; null: never required. */
export function requirementScope(account: Pick<FactorAccount, 'subtype' | 'entity'>): string | null {
  if (account.subtype === 'sadmin') return '';
  if (account.subtype === 'admin' && account.entity) return account.entity;
  return null;
}

/** Whether the account must sign in with a second factor (an admin of a scope that requires it). */
export async function isRequired(db: Executor, account: Pick<FactorAccount, 'subtype' | 'entity'>): Promise<boolean> {
  const scope = requirementScope(account);
  if (scope === null) return false;
  const [row] = await db.select().from(totpRequirements).where(eq(totpRequirements.scope, scope)).limit(1);
  return Boolean(row);
}

/** The account's confirmed authenticator, if any. */
export async function confirmedFactor(db: Executor, accountId: string) {
  const [row] = await db
    .select()
    .from(accountTotp)
    .where(and(eq(accountTotp.account_id, accountId), isNotNull(accountTotp.confirmed_at)))
    .limit(1);
  return row;
}

/**
 * Accepts `code` for the account's authenticator at `at`: a code of a step at or before the last
 * accepted one is refused (a replay), atomically, so two instances never both accept one code.
 * With `pending`, checks the enrolment waiting for its first code instead, and confirms it.
 */
export async function acceptCode(
  db: Executor,
  accountId: string,
  secret: string,
  code: string,
  at: Date,
  pending = false,
): Promise<boolean> {
  const step = matchStep(secret, code.trim(), at);
  if (step === null) return false;
  const rows = await db
    .update(accountTotp)
    .set({ last_step: step, ...(pending ? { confirmed_at: at } : {}) })
    .where(
      and(
        eq(accountTotp.account_id, accountId),
        eq(accountTotp.secret, secret),
        pending ? isNull(accountTotp.confirmed_at) : isNotNull(accountTotp.confirmed_at),
        or(isNull(accountTotp.last_step), lt(accountTotp.last_step, step)),
      ),
    )
    .returning({ id: accountTotp.account_id });
  return rows.length === 1;
}

/** Spends one recovery code, once. */
export async function spendRecoveryCode(db: Executor, accountId: string, code: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(totpRecoveryCodes)
    .set({ used_at: at })
    .where(
      and(
        eq(totpRecoveryCodes.account_id, accountId),
        eq(totpRecoveryCodes.code_hash, hashToken(normaliseRecoveryCode(code))),
        isNull(totpRecoveryCodes.used_at),
      ),
    )
    .returning({ id: totpRecoveryCodes.account_id });
  return rows.length === 1;
}

/** Recovery codes not yet spent. */
export async function recoveryCodesLeft(db: Executor, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(totpRecoveryCodes)
    .where(and(eq(totpRecoveryCodes.account_id, accountId), isNull(totpRecoveryCodes.used_at)));
  return row?.n ?? 0;
}
