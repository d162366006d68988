// The audit log's closed list of actions (issue 26; docs/audit.md). An entry's action is one of
// these, `noun.verb`; a new kind of change adds its action here first.

/** Every action an audit entry may name, with what it records. */
export const AUDIT_ACTIONS = {
  'session.login': 'A sign-in with name and password (failure: wrong credentials or throttled)',
  'session.sso': "A sign-in through an identity provider (failure: the provider's answer refused, no matching account)",
  'session.logout': 'A sign-out: the session family of the presented token ended',
  'session.revoke': 'A session family revoked because a spent refresh token was presented again',
  'access.deny': 'A request refused for want of the right (403)',
  'account.create': 'An account created',
  'account.update': 'An account changed (a new password is recorded as changed, never its value)',
  'account.delete': 'An account deleted',
  'account.two_factor_enrol': 'An account set up its authenticator app (two-factor sign-in)',
  'account.two_factor_reset': "An admin removed another account's second factor",
  'account.two_factor_requirement': "Two-factor sign-in required (or no longer) for a scope's admins",
  'token.create': 'A permanent token generated (recorded by its description and hash prefix)',
  'token.delete': 'A permanent token revoked',
  'entity.create': 'An entity (tenant) created',
  'entity.update': "An entity's description, tier or configuration changed",
  'entity.delete': 'An entity deleted with everything in it',
  'device.create': 'A device registered (its MQTT secret is never recorded)',
  'device.update': 'A device changed',
  'device.delete': 'A device deleted',
  'device.rekey': "A device's MQTT secret replaced",
  'device.bulk_delete': 'Every device of a scope deleted at once: one entry with the count and the names',
  'site.create': 'A site created',
  'site.update': 'A site changed',
  'site.delete': 'A site deleted',
  'kiosk.create': 'A kiosk created',
  'kiosk.update': 'A kiosk changed',
  'kiosk.delete': 'A kiosk deleted',
  'group.create': 'A group created',
  'group.update': 'A group changed',
  'group.delete': 'A group deleted',
  'dataview.create': 'A dataview created',
  'dataview.update': 'A dataview changed',
  'dataview.delete': 'A dataview deleted',
  'view.create': 'A saved view of the device list created',
  'view.update': 'A saved view of the device list changed',
  'view.delete': 'A saved view of the device list deleted',
  'file.create': 'A file uploaded',
  'file.delete': 'A file deleted',
  'firmware.create': 'A firmware image uploaded',
  'firmware.delete': 'A firmware image deleted',
  'beacon_config.create': 'A beacon configuration created',
  'beacon_config.update': 'A beacon configuration changed',
  'beacon_config.delete': 'A beacon configuration deleted',
  'command.send': 'A command sent to a device, or to several as one entry with the count and names',
  'firmware.send': 'A firmware update sent to devices',
  'provision.start': 'A provisioning session started',
  'provision.cancel': 'A provisioning session cancelled',
  'provision.end': 'A provisioning session ended',
  'allocation.create': 'A device allocated by a kiosk',
  'allocation.return': 'An allocated device returned',
  'alert.acknowledge': 'An alert acknowledged',
  'alert.clear': 'An alert cleared by hand',
  'alert_rule.create': 'An alert rule created',
  'alert_rule.update': 'An alert rule changed',
  'alert_rule.delete': 'An alert rule deleted',
  'webhook.create': 'A webhook created (its secret is never recorded)',
  'webhook.update': 'A webhook changed',
  'webhook.delete': 'A webhook deleted',
  'webhook.rotate': "A webhook's secret replaced",
  'webhook.disable': 'A webhook turned off by the system after repeated failure, with the reason',
  'rollout.create': 'A firmware rollout created (a draft)',
  'rollout.start': 'A rollout started: its target resolved to a fixed set of devices',
  'rollout.pause': 'A rollout paused, by a person or by itself (the system) with the reason',
  'rollout.resume': 'A paused rollout resumed',
  'rollout.approve': 'The next stage of a rollout approved',
  'rollout.cancel': 'A rollout cancelled: nothing new is sent',
  'rollout.retry': "A rollout's failed devices sent their update again",
  'rollout.finish': 'A rollout finished (the system)',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

/** What an entry's target may be. */
export const AUDIT_TARGET_TYPES = [
  'session',
  'account',
  'token',
  'entity',
  'device',
  'site',
  'kiosk',
  'group',
  'dataview',
  'view',
  'file',
  'firmware',
  'beacon_config',
  'command',
  'provisioning',
  'allocation',
  'rollout',
  'route',
  'alert',
  'alert_rule',
  'webhook',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** Who acted: a person's account, a permanent token, a device, or the server itself. */
export const AUDIT_ACTOR_KINDS = ['account', 'token', 'device', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** How many characters of a permanent token's hash name it in an entry. */
export const TOKEN_HASH_PREFIX = 12;

/** Days an entry is kept by default (`AUDIT_RETENTION_DAYS`). */
export const AUDIT_RETENTION_DAYS_DEFAULT = 365;
