// The upgrade fixture (docs/operations.md "Upgrades"): a backup archive of a data directory made
// by an earlier release's own code. Checks COMMIT out into a temporary worktree, starts its server
// on a fresh DATA_DIR, seeds entities, accounts, devices, reports and firmware through its API and
// broker, stops it, and packs the directory with this release's archive writer (the old code has
// none). Run at each release:
//   node --import tsx scripts/make-upgrade-fixture.mjs <commit> [out]
// (out defaults to apps/server/test/fixtures/upgrade/previous-release.tar.br)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import mqtt from 'mqtt';
import { countRows } from '../apps/server/src/backup/row-counts.js';
import { writeBackup } from '../apps/server/src/backup/write-backup.ts';
import { createLocalBlobStore } from '../apps/server/src/storage/local-blob-store.ts';
import { root } from './lib.mjs';

const commit = process.argv[2];
if (!commit) {
  console.error('Usage: node --import tsx scripts/make-upgrade-fixture.mjs <commit> [out]');
  process.exit(2);
}
const out = path.resolve(
  process.argv[3] ?? path.join(root, 'apps/server/test/fixtures/upgrade/previous-release.tar.br'),
);
const sha = execFileSync('git', ['rev-parse', commit], { cwd: root, encoding: 'utf8' }).trim();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-fixture-'));
const tree = path.join(work, 'tree');
const dataDir = path.join(work, 'data');
const git = (...args) => execFileSync('git', args, { cwd: root, stdio: 'inherit' });

/** The worktree uses this checkout's packages, but its own workspace packages (@fleet/*). */
function linkModules() {
  const mods = path.join(tree, 'node_modules');
  fs.mkdirSync(path.join(mods, '@fleet'), { recursive: true });
  for (const name of fs.readdirSync(path.join(root, 'node_modules'))) {
    if (name !== '@fleet') fs.symlinkSync(path.join(root, 'node_modules', name), path.join(mods, name));
  }
  for (const [name, dir] of Object.entries({ shared: 'packages/shared', server: 'apps/server' })) {
    fs.symlinkSync(path.join(tree, dir), path.join(mods, '@fleet', name));
  }
  for (const dir of ['apps/server', 'packages/shared']) {
    const own = path.join(root, dir, 'node_modules');
    if (fs.existsSync(own)) fs.symlinkSync(own, path.join(tree, dir, 'node_modules'));
  }
}

const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

const ADMIN = { name: 'admin', password: 'fixture-password-1' };

async function seed(base, mqttPort) {
  const call = async (method, p, token, body) => {
    const res = await fetch(base + p, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const token = (await call('POST', '/login', undefined, { name: ADMIN.name, password: ADMIN.password })).access_token;
  for (const entity of ['harbour', 'airfield']) {
    await call('POST', '/tenant', token, { document: { name: { name: entity, description: `${entity} fleet` } } });
    await call('POST', '/account', token, {
      document: {
        name: `${entity}_admin`,
        email: `${entity}_admin@fixture.test`,
        password: 'fixture-password-2',
        entity,
        subtype: 'admin',
        access: ['all'],
      },
    });
    for (let i = 1; i <= 6; i++) {
      const name = `${entity === 'harbour' ? 'a' : 'b'}${String(i).padStart(11, '0')}`;
      const created = await call('POST', `/tenant/${entity}/device`, token, {
        document: { name, description: `unit ${i}`, manufacturing_type: i % 2 ? 'CC1' : 'CC2' },
      });
      if (i > 3) continue;
      // Three devices per entity report a few states: history rows, online points, battery.
      const { username, password } = created.data.mqtt;
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
        username,
        password,
        clientId: username,
      });
      for (const battery of [90, 80, 70]) {
        await client.publishAsync(`fleet/${entity}/${name}/state`, JSON.stringify({ state: 'WAITING', battery }), {
          qos: 1,
        });
      }
      await client.endAsync();
    }
    const form = new FormData();
    for (const [k, v] of Object.entries({
      level: 'entity',
      entity_id: entity,
      version: '1.0.0',
      device_type: 'CC1',
      description: '',
    })) {
      form.append(k, v);
    }
    form.append('firmware_file', new Blob([Buffer.from(`${entity} firmware 1.0.0\n`.repeat(64))]), 'fw.bin');
    const up = await fetch(`${base}/tenant/${entity}/firmware`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (up.status !== 201) throw new Error(`firmware upload answered ${up.status}: ${await up.text()}`);
  }
}

try {
  git('worktree', 'add', '--detach', tree, sha);
  linkModules();
  const port = await freePort();
  const mqttPort = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(tree, 'apps/server'),
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      ADMIN_USERNAME: ADMIN.name,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const base = `http://127.0.0.1:${port}/api/v1`;
  let ready = false;
  for (let i = 0; i < 900 && !ready; i++) {
    ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) throw new Error('the old server did not become ready');
  try {
    await seed(base, mqttPort);
    // Reports are written in batches: give the last ones time to land before stopping.
    await new Promise((r) => setTimeout(r, 2000));
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
  const journal = JSON.parse(fs.readFileSync(path.join(tree, 'apps/server/drizzle/meta/_journal.json'), 'utf8'));
  const db = await PGlite.create(path.join(dataDir, 'pgdata'), { extensions: { pg_trgm } });
  // The old server has stopped: a copy of its files is a consistent snapshot (the backup removes it).
  const snapshot = async () => {
    const rows = await countRows(db);
    await db.exec('checkpoint');
    const dir = path.join(dataDir, 'pgdata.snapshot');
    fs.cpSync(path.join(dataDir, 'pgdata'), dir, { recursive: true });
    return { rows, dir };
  };
  const blobs = await createLocalBlobStore(path.join(dataDir, 'blobs'));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.rmSync(out, { force: true });
  const version = `${JSON.parse(fs.readFileSync(path.join(tree, 'package.json'), 'utf8')).version} (${sha.slice(0, 12)})`;
  const migrationTags = journal.entries.map((e) => e.tag);
  const manifest = await writeBackup({ snapshot, blobs, dataDir, version, migrationTags, compression: 'brotli' }, out);
  await db.close();
  console.log(`${out}: ${fs.statSync(out).size} bytes, release ${version}, ${manifest.migrations.count} migrations`);
  console.log(JSON.stringify(manifest.rows));
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'inherit' });
  fs.rmSync(work, { recursive: true, force: true });
}
