import { eq } from 'drizzle-orm';
import type { SsoProvider, SsoProviderRequest } from '@fleet/shared/schemas/sso';
import { SsoProviderRequestSchema } from '@fleet/shared/schemas/sso';
import type { Subtype } from '@fleet/shared/constants';
import type { Config } from '../../config.ts';
import { ssoProviders } from '../../db/schema.ts';
import { invalidField, notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';

/** The landlord's provider id (its settings come from OIDC_*); an entity's is its row's uuid. */
export const LANDLORD_PROVIDER = 'landlord';

/** A provider as sign-in uses it: `entity` null for the landlord's (superadmins). */
export interface ResolvedProvider {
  id: string;
  entity: string | null;
  label: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  claim: 'email' | 'sub';
  auto_create: boolean;
  default_subtype: Subtype;
  default_access: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The landlord's provider from the environment, when OIDC_ISSUER is set. Never creates accounts. */
export function landlordProvider(config: Config): ResolvedProvider | null {
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET) return null;
  return {
    id: LANDLORD_PROVIDER,
    entity: null,
    label: config.OIDC_LABEL,
    issuer: config.OIDC_ISSUER,
    client_id: config.OIDC_CLIENT_ID,
    client_secret: config.OIDC_CLIENT_SECRET,
    claim: config.OIDC_CLAIM,
    auto_create: false,
    default_subtype: 'developer',
    default_access: [],
  };
}

/** A provider by its id, or null. */
export async function findProvider(deps: Deps, id: string): Promise<ResolvedProvider | null> {
  if (id === LANDLORD_PROVIDER) return landlordProvider(deps.config);
  if (!UUID.test(id)) return null;
  const [row] = await deps.db.select().from(ssoProviders).where(eq(ssoProviders.id, id)).limit(1);
  return row ?? null;
}

/** The login page's list: every provider by id and label (entity names are not shown). */
export async function listProviders(deps: Deps): Promise<Array<{ id: string; label: string }>> {
  const rows = await deps.db
    .select({ id: ssoProviders.id, label: ssoProviders.label })
    .from(ssoProviders)
    .orderBy(ssoProviders.label);
  const landlord = landlordProvider(deps.config);
  return landlord ? [{ id: landlord.id, label: landlord.label }, ...rows] : rows;
}

type Row = typeof ssoProviders.$inferSelect;

function present(row: Row, redirectUri: string): SsoProvider {
  const { client_secret, created_at: _c, updated_at: _u, ...rest } = row;
  return { ...rest, has_secret: client_secret !== '', redirect_uri: redirectUri } as SsoProvider;
}

/** An entity's provider without its secret (null: none). */
export async function getEntityProvider(deps: Deps, entity: string, redirectUri: string) {
  const [row] = await deps.db.select().from(ssoProviders).where(eq(ssoProviders.entity, entity)).limit(1);
  return row ? present(row, redirectUri) : null;
}

/** Sets an entity's provider (superadmin); a missing secret keeps the stored one. Audited as an entity change. */
export async function putEntityProvider(
  deps: Deps,
  ctx: AuditContext,
  entity: string,
  input: SsoProviderRequest,
  redirectUri: string,
): Promise<SsoProvider> {
  const doc = SsoProviderRequestSchema.parse(input);
  const [before] = await deps.db.select().from(ssoProviders).where(eq(ssoProviders.entity, entity)).limit(1);
  const secret = doc.client_secret ?? before?.client_secret;
  if (!secret) throw invalidField('client_secret', 'Required');
  const values = { ...doc, client_secret: secret, entity };
  const entry = { action: 'entity.update', entity, target: { type: 'entity', name: entity } } as const;
  const complete = (row: Row) => ({
    before: before ? { sso: { ...before, updated_at: undefined } } : undefined,
    after: { sso: { ...row, updated_at: undefined } },
  });
  const row = await audited(deps.db, ctx, { ...entry, complete }, async (tx) => {
    const [saved] = await tx
      .insert(ssoProviders)
      .values(values)
      .onConflictDoUpdate({ target: ssoProviders.entity, set: { ...values, updated_at: new Date() } })
      .returning();
    return saved!;
  });
  return present(row, redirectUri);
}

/** Removes an entity's provider; its people sign in with passwords again. */
export async function deleteEntityProvider(deps: Deps, ctx: AuditContext, entity: string): Promise<void> {
  const entry = { action: 'entity.update', entity, target: { type: 'entity', name: entity } } as const;
  await audited(
    deps.db,
    ctx,
    { ...entry, complete: (row: Row) => ({ before: { sso: { ...row, updated_at: undefined } } }) },
    async (tx) => {
      const [gone] = await tx.delete(ssoProviders).where(eq(ssoProviders.entity, entity)).returning();
      if (!gone) throw notFound('Single sign-on provider');
      return gone;
    },
  );
}
