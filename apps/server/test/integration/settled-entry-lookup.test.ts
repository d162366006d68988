// A reply's settlement looks up the request that sent its command (the send's audit entry) for
// each row it settles. Through the entries' (entity, action) index that lookup filtered every
// `firmware.send` entry of the entity for each row, so a batch of 100 replies took seconds after
// one bulk DFU of 10,000 devices (bench/notes/rollout-bench.md, 2026-11-28 night): it must go
// through the target index, a device's few entries, however many entries share the action.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { settlingWithEntries } from '../../src/domain/audit/command-outcomes.ts';
import type { TestServer } from '../helpers/server.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';

let s: TestServer;
let ACME = '';

beforeAll(async () => {
  ({ s, acme: ACME } = await startWithTwoEntities());
  // What the bench's database held when it happened: 8,000 devices of one entity, each with its
  // registration's entry and two settled firmware updates (a bulk DFU, then a rollout's).
  for (const action of ['device.create', 'firmware.send', 'firmware.send']) {
    await s.app.database.db.execute(sql`
      insert into audit_entries (entity, actor_kind, actor_id, actor_name, action, target_type, target_name, outcome, details)
      select ${ACME}, 'device', n, n, ${action}, 'device', n, 'success',
        jsonb_build_object('phase', 'settled', 'command', 'dfu', 'command_id', gen_random_uuid(), 'state', 'succeeded')
      from (select substr(md5(i::text), 1, 12) as n from generate_series(1, 8000) i) d`);
  }
  // 24,000 entries with their trigram index take half a minute on a loaded box.
}, 240_000);
afterAll(async () => {
  await s?.close();
});

describe("a reply's settled entry", () => {
  it("finds the send's entry through the target index, not by filtering the action's entries", async () => {
    const update = sql`update commands set state = 'succeeded'
      where id = ${randomUUID()} and device = 'c4ca4238a0b9' and state in ('queued', 'sent', 'timed_out')`;
    const plan = rowsOf<{ 'QUERY PLAN': string }>(
      await s.app.database.db.execute(sql`explain ${settlingWithEntries(update, 'device')}`),
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('audit_entries_target_idx');
    expect(plan).not.toContain('audit_entries_action_idx');
  });
});
