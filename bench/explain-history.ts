// The plans behind issue 26's audit search and issue 27's fleet windows (run with
// `node --import tsx bench/explain-history.ts [--audit=200000] [--commands=200000]`; PGlite, or
// PostgreSQL under `scripts/ci/with-services.sh`). Fills audit entries, devices, commands and
// provisioning sessions over 50 entities with SQL in bulk, analyzes, and prints EXPLAIN ANALYZE
// of the audit list's free-text page and count (the query the route runs, from auditWhere), and
// of the fleet health window's reads of commands and provisioning sessions; then says whether
// each used the index meant for it. Exit code 1 when one did not. Far smaller fills (a few hundred
// entries per entity) rightly read an entity's entries and filter them instead.
import { sql, type SQLWrapper } from 'drizzle-orm';

const { rowsOf } = await import('../apps/server/src/db/raw-sql.ts');
const { auditEntries } = await import('../apps/server/src/db/schema/audit.ts');
const { auditWhere } = await import('../apps/server/src/domain/audit/list-audit.ts');
const { dailyActivity } = await import('../apps/server/src/domain/fleet-health/fleet-daily-queries.ts');
const { benchApp, entityOf } = await import('./bench-app.ts');
const { mkdtempSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const AUDIT = arg('audit', 200_000);
const COMMANDS = arg('commands', 200_000);

const app = await benchApp(mkdtempSync(join(tmpdir(), 'explain-history-')));
const db = app.db;

await db.execute(sql`
  insert into audit_entries (at, entity, actor_kind, actor_name, action, target_type, target_name, outcome, reason)
  select now() - make_interval(secs => (${AUDIT} - i) * 30.0), ${entityOf('i')}, 'account', 'user_' || (i % 200),
    (array['session.login','device.update','command.send'])[1 + i % 3], 'device', 'unit_' || (i % 5000),
    case when i % 37 = 0 then 'failure' else 'success' end, case when i % 37 = 0 then 'Wrong password' end
  from generate_series(1, ${AUDIT}) as i`);
await db.execute(sql`
  insert into devices (name, entity, description, mqtt_secret_hash)
  select 'x' || lpad(to_hex(d), 11, '0'), ${entityOf('d')}, '', 'x' from generate_series(1, 5000) as d`);
await db.execute(sql`
  insert into commands (id, device, entity, type, payload, target, state, sent_by, created_at, replied_at, expires_at)
  select gen_random_uuid(), 'x' || lpad(to_hex(1 + i % 5000), 11, '0'), ${entityOf('(1 + i % 5000)')},
    case when i % 10 = 0 then 'dfu' else 'refresh' end, '{"version":"2.0.0"}', 'device',
    case when i % 7 = 0 then 'failed' else 'succeeded' end, 'admin',
    now() - make_interval(secs => i * 60.0), now() - make_interval(secs => i * 60.0 - 5), now()
  from generate_series(1, ${COMMANDS}) as i`);
await db.execute(sql`
  insert into provision_sessions (id, entity, device, status, started_by, created_at, heard_at, ended_at)
  select gen_random_uuid(), ${entityOf('(1 + i % 5000)')}, 'x' || lpad(to_hex(1 + i % 5000), 11, '0'),
    'provision_completed', 'admin', now() - make_interval(secs => i * 600.0), now(), now()
  from generate_series(1, ${COMMANDS / 10}) as i`);
await db.execute(sql`analyze`);

let failed = 0;
async function explain(label: string, query: SQLWrapper, index: string) {
  const plan = rowsOf<Record<string, string>>(await db.execute(sql`explain (analyze, buffers, costs off) ${query}`))
    .map((r) => Object.values(r)[0])
    .join('\n');
  const used = plan.includes(index);
  if (!used) failed += 1;
  console.log(`\n## ${label}: ${used ? 'uses' : 'does NOT use'} ${index}\n${plan}`);
}

const search = auditWhere('e07', { search: 'Wrong pass' });
await explain(
  'audit page, entity e07, free text "Wrong pass"',
  db
    .select()
    .from(auditEntries)
    .where(search)
    .orderBy(sql`at desc, id desc`)
    .limit(50),
  'audit_entries_entity_search_trgm_idx',
);
await explain(
  'audit count, same filter',
  db
    .select({ n: sql`count(*)` })
    .from(auditEntries)
    .where(search),
  'audit_entries_entity_search_trgm_idx',
);
// Same-run baseline: the four ILIKEs the list ran before migration 0015, which no index serves.
const ilikes = sql`(actor_name ilike '%Wrong pass%' or target_name ilike '%Wrong pass%'
  or reason ilike '%Wrong pass%' or action ilike '%Wrong pass%')`;
const baseline = rowsOf<Record<string, string>>(
  await db.execute(
    sql`explain (analyze, buffers, costs off) select count(*) from audit_entries where entity = 'e07' and ${ilikes}`,
  ),
).map((r) => Object.values(r)[0]);
console.log(`\n## baseline, the count with four ILIKEs (before 0015)\n${baseline.join('\n')}`);
const landlordSearch = auditWhere(null, { search: 'unit_4242' });
await explain(
  'audit page, every entity, free text "unit_4242"',
  db
    .select()
    .from(auditEntries)
    .where(landlordSearch)
    .orderBy(sql`at desc, id desc`)
    .limit(50),
  'audit_entries_entity_search_trgm_idx',
);
const day = Date.now() - 86_400_000;
await explain(
  "fleet window: an entity's commands started in the last day, by outcome",
  sql`select type = 'dfu', state, count(*) from commands where entity = 'e07'
      and created_at >= ${new Date(day).toISOString()}::timestamptz group by 1, 2`,
  'commands_entity_created_idx',
);
await explain(
  "fleet window: an entity's firmware updates that succeeded in the last day",
  sql`select payload->>'version', count(distinct device) from commands where entity = 'e07' and type = 'dfu'
      and state = 'succeeded' and replied_at >= ${new Date(day).toISOString()}::timestamptz group by 1`,
  'commands_entity_dfu_replied_idx',
);
await explain(
  "fleet window: an entity's provisioning sessions of the last 7 days",
  sql`select status, count(*) from provision_sessions where entity = 'e07'
      and created_at >= ${new Date(Date.now() - 7 * 86_400_000).toISOString()}::timestamptz group by 1`,
  'provision_sessions_entity_created_idx',
);
const t0 = performance.now();
await dailyActivity(db, 'e07', Math.floor(Date.now() / 86_400_000) * 86_400_000, Date.now());
console.log(`\ntoday's live column of a trend (e07): ${(performance.now() - t0).toFixed(1)} ms`);

await app.close();
console.log(
  `\n${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}: ${failed === 0 ? 'every plan uses its index' : `${failed} plan(s) without their index`}`,
);
process.exit(failed === 0 ? 0 : 1);
