// A telemetry flush is written in statements of a bounded number of devices (issue 28): the
// embedded database has one connection, and an operator's query waits out whatever statement holds
// it, so a flush of thousands must not be one statement. Nothing is lost by the cut, and each
// device's history keeps its order.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { FLUSH_CHUNK } from '../../src/domain/telemetry/telemetry-batcher.ts';
import type { TestServer } from '../helpers/server.ts';
import { randomDeviceId as hex, startWithTwoEntities } from '../helpers/devices.ts';

let s: TestServer;
let ACME = '';

beforeAll(async () => {
  ({ s, acme: ACME } = await startWithTwoEntities());
});
afterAll(async () => {
  await s?.close();
});

describe('a telemetry flush of more devices than a chunk', () => {
  it('is written in ceil(N / chunk) statements, and every device gets its state and history in order', async () => {
    const N = 7;
    const chunk = 3;
    const prefix = `chunk-${hex().slice(0, 8)}-`;
    const names = Array.from({ length: N }, (_, i) => `${prefix}${i}`);
    await s.app.db.execute(sql`
      insert into devices (name, entity, mqtt_secret_hash)
      select ${prefix} || i::text, ${ACME}, 'x' from generate_series(0, ${N - 1}) i`);
    const telemetry = s.app.devices.telemetry;
    await telemetry.flush();
    telemetry.chunk = chunk;
    const seen: string[] = [];
    const probe = s.app.database.probe;
    probe.traceQuery = (text, values) => {
      if (/update devices d set/.test(text) && names.some((n) => JSON.stringify(values).includes(n))) seen.push(text);
    };
    try {
      const t0 = Date.now();
      for (const [i, name] of names.entries()) {
        telemetry.report(name, { state: 'first', battery: i }, new Date(t0));
        telemetry.report(name, { state: 'second' }, new Date(t0 + 1));
      }
      await telemetry.flush();
    } finally {
      probe.traceQuery = null;
      telemetry.chunk = FLUSH_CHUNK;
    }
    expect(seen).toHaveLength(Math.ceil(N / chunk));
    const rows = rowsOf<{ name: string; state: string; battery: number; online: boolean }>(
      await s.app.db.execute(sql`
        select name, state_current as state, battery, online from devices where name like ${`${prefix}%`} order by name`),
    );
    expect(rows.map((r) => [r.name, r.state, r.battery, r.online])).toEqual(
      names.map((n, i) => [n, 'second', i, true]),
    );
    const history = rowsOf<{ device: string; states: string }>(
      await s.app.db.execute(sql`
        select device, string_agg(state, ',' order by at) as states from device_telemetry
        where device like ${`${prefix}%`} and kind <> 'online' group by device`),
    );
    expect(history).toHaveLength(N);
    for (const h of history) expect(h.states).toBe('first,second');
  });
});
