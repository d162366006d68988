import { describe, expect, it } from 'vitest';
import { burstMail } from './alert-email.ts';

const row = (over: Record<string, unknown>) => ({
  id: 1,
  rule_id: 'r1',
  entity: 'acme',
  attempts: 0,
  rule_name: 'Rollout paused',
  email_to: ['ops@example.com'],
  device: null,
  severity: 'critical',
  raised_at: '2026-11-27T10:00:00.000Z',
  detail: {},
  ...over,
});

describe('burstMail', () => {
  it('names a rollout alert by its rollout and says why it paused (it has no device)', () => {
    const mail = burstMail('acme', [
      row({ detail: { rollout_name: 'Spring release', reason: 'Stage Canary (1): 1 of 1 devices failed' } }),
    ]);
    expect(mail.text).toContain(
      '- rollout Spring release (critical) raised 2026-11-27T10:00:00.000Z: Stage Canary (1)',
    );
    expect(mail.to).toEqual(['ops@example.com']);
  });

  it('lists a device alert by the device with its battery', () => {
    const mail = burstMail('acme', [row({ device: 'unit_7', severity: 'warning', detail: { battery: 12 } })]);
    expect(mail.text).toContain('- unit_7 (warning) raised 2026-11-27T10:00:00.000Z, battery 12%');
    expect(mail.subject).toBe('[Fleet Console] Rollout paused: 1 alert in acme');
  });
});
