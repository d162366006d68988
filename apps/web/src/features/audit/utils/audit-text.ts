import type { AuditEntry } from '@fleet/shared/schemas/audit';

/** Who acted, in words: an account or device by name, a token by its description and account, or the system. */
export function actorText(actor: AuditEntry['actor']): string {
  if (actor.kind === 'system') return 'System';
  if (actor.kind === 'token') {
    const name = actor.name ?? actor.id ?? 'token';
    return actor.account ? `Token “${name}” (${actor.account})` : `Token “${name}”`;
  }
  return actor.name ?? actor.id ?? actor.kind;
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The changed fields as `field: before → after` lines, or the bulk details (`count`, names). */
export function changeLines(entry: Pick<AuditEntry, 'changes' | 'details'>): string[] {
  const before = entry.changes?.before ?? {};
  const after = entry.changes?.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const lines = fields.map((field) => {
    if (!(field in before)) return `${field}: ${show(after[field])}`;
    if (!(field in after)) return `${field}: ${show(before[field])} → (none)`;
    return `${field}: ${show(before[field])} → ${show(after[field])}`;
  });
  const details = entry.details ?? {};
  const names = Array.isArray(details.names) ? (details.names as unknown[]).map(String) : null;
  if (typeof details.count === 'number') lines.push(`${details.count} item${details.count === 1 ? '' : 's'}`);
  if (names) lines.push(names.join(', '));
  for (const [key, value] of Object.entries(details)) {
    if (key !== 'count' && key !== 'names') lines.push(`${key}: ${show(value)}`);
  }
  return lines;
}
