import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { ReplyMessage } from '@fleet/shared/protocol';
import { onDfuSettled } from './on-dfu-settled.ts';

const render = (q: Parameters<PgDialect['sqlToQuery']>[0]) => new PgDialect().sqlToQuery(q);
const reply = (data?: Record<string, unknown>): ReplyMessage => ({
  id: '00000000-0000-4000-8000-000000000001',
  status: 'success',
  ...(data && { data }),
});

describe('onDfuSettled', () => {
  it('follows firmware updates only, and completes their progress', () => {
    expect(onDfuSettled.types).toEqual(['dfu']);
    expect(onDfuSettled.completesProgress).toBe(true);
  });

  it.each([
    ['the version the device reports', reply({ fw_version: '2.0.0' }), '2.0.0'],
    ['no version when it reports none', reply(), null],
    ['no version when it reports one that is not text', reply({ fw_version: 2 }), null],
  ])('compares the version sent with %s', (_, r, reported) => {
    const refusal = onDfuSettled.refuseSuccess!(r);
    const when = render(refusal.when);
    expect(when.sql).toBe(`payload->>'version' is distinct from $1::text`);
    expect(when.params).toEqual([reported]);
    expect(render(refusal.error).params).toEqual([reported]);
  });
});
