import { z } from 'zod';
import { cappedListOf } from './list.ts';
import { AUDIT_ACTION_NAMES, AUDIT_ACTOR_KINDS, AUDIT_OUTCOMES, AUDIT_TARGET_TYPES } from '../audit-actions.ts';

/** One audit entry as the API answers it (issue 26). */
export const AuditEntrySchema = z.object({
  id: z.string().describe('Increasing with time; a string because it is a 64-bit integer'),
  at: z.string(),
  /** null for landlord-level actions. */
  entity: z.string().nullable(),
  actor: z.object({
    kind: z.enum(AUDIT_ACTOR_KINDS),
    /** An account's or device's name, a token's hash prefix; null for the system. */
    id: z.string().nullable(),
    /** An account's or device's name, a token's description. */
    name: z.string().nullable(),
    /** The account a permanent token acts for. */
    account: z.string().nullable(),
  }),
  address: z.string().nullable(),
  user_agent: z.string().nullable(),
  action: z.enum(AUDIT_ACTION_NAMES),
  target: z.object({ type: z.enum(AUDIT_TARGET_TYPES), name: z.string().nullable() }),
  outcome: z.enum(AUDIT_OUTCOMES),
  reason: z.string().nullable(),
  /** The changed fields, secrets redacted. */
  changes: z
    .object({
      before: z.record(z.string(), z.unknown()).optional(),
      after: z.record(z.string(), z.unknown()).optional(),
    })
    .nullable(),
  /** Bulk operations: the count and the names. */
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const time = z.iso.datetime({ offset: true });

/** The filters of the list and of the export. */
export const AuditFilterSchema = z.object({
  from: time.optional().describe('Entries at or after this time'),
  to: time.optional().describe('Entries before this time'),
  actor: z.string().trim().min(1).max(128).optional().describe("The actor's name or id, exactly"),
  action: z.enum(AUDIT_ACTION_NAMES).optional(),
  target_type: z.enum(AUDIT_TARGET_TYPES).optional(),
  target_name: z.string().trim().min(1).max(128).optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  search: z.string().trim().min(1).max(100).optional().describe('Free text in the actor, target and reason'),
  /** The superadmin's path only: one entity's entries (`landlord`: the landlord-level ones). */
  entity: z.string().trim().min(1).max(64).optional(),
});
export type AuditFilter = z.infer<typeof AuditFilterSchema>;

export const AuditListQuerySchema = AuditFilterSchema.extend({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type AuditListQuery = z.infer<typeof AuditListQuerySchema>;

/** A page of the audit log, its total capped (cappedListOf). */
export const AuditPageSchema = cappedListOf(AuditEntrySchema, 'entries');
export type AuditPage = z.infer<typeof AuditPageSchema>;

export const AuditExportQuerySchema = AuditFilterSchema.extend({ format: z.enum(['csv', 'json']).default('csv') });
export type AuditExportQuery = z.infer<typeof AuditExportQuerySchema>;
