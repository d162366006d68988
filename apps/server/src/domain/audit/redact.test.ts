import { describe, expect, it } from 'vitest';
import { REDACTED, changesOf, redact } from './redact.ts';

describe('redact', () => {
  it('masks secrets by key at any depth, keeping that they were set', () => {
    const out = redact({
      name: 'dev-1',
      password: 'hunter2-long',
      mqtt: { username: 'dev-1', password: 'p4ss' },
      mqtt_secret_hash: 'abc',
      token_hash: 'deadbeef',
      download_url: 'https://x.test/f',
      list: [{ refresh_token: 'r' }],
      cleared: { password: null },
    });
    expect(out).toEqual({
      name: 'dev-1',
      password: REDACTED,
      mqtt: { username: 'dev-1', password: REDACTED },
      mqtt_secret_hash: REDACTED,
      token_hash: REDACTED,
      download_url: REDACTED,
      list: [{ refresh_token: REDACTED }],
      cleared: { password: null },
    });
  });

  it('masks values that are secrets under any key: our tokens, JWTs, signed links', () => {
    const out = redact({
      note: 'pt_' + 'a'.repeat(43),
      other: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
      link: '/api/v1/download/f.bin?expires=1&sig=abc',
      plain: 'a description',
    });
    expect(out).toEqual({ note: REDACTED, other: REDACTED, link: REDACTED, plain: 'a description' });
  });

  it('answers only the changed fields of an update, redacted', () => {
    expect(
      changesOf({ a: 1, b: 'x', password: 'old', updated_at: 1 }, { a: 1, b: 'y', password: 'new', updated_at: 2 }),
    ).toEqual({
      before: { b: 'x', password: REDACTED },
      after: { b: 'y', password: REDACTED },
    });
    expect(changesOf(undefined, { token: 'v' })).toEqual({ after: { token: REDACTED } });
  });
});
