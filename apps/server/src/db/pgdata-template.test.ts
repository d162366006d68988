import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrationsFingerprint, usableTemplate } from './pgdata-template.js';

let root: string;
let migrations: string;
let template: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-tpl-'));
  migrations = path.join(root, 'drizzle');
  template = path.join(root, 'pgdata-template');
  fs.mkdirSync(path.join(migrations, 'meta'), { recursive: true });
  fs.writeFileSync(path.join(migrations, '0000_init.sql'), 'create table a (id int);');
  fs.writeFileSync(path.join(migrations, 'meta', '_journal.json'), '{"entries":[]}');
  fs.mkdirSync(path.join(template, 'pgdata'), { recursive: true });
  fs.writeFileSync(path.join(template, 'pgdata', 'PG_VERSION'), '17\n');
  fs.writeFileSync(path.join(template, 'fingerprint'), `${migrationsFingerprint(migrations)}\n`);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the database template shipped with the build', () => {
  it('is used when it was made from exactly these migrations', () => {
    expect(usableTemplate(template, migrations)).toBe(path.join(template, 'pgdata'));
  });

  it('is ignored once a migration is added or changed, so initdb and every migration run as before', () => {
    fs.writeFileSync(path.join(migrations, '0001_more.sql'), 'create table b (id int);');
    expect(usableTemplate(template, migrations)).toBeUndefined();
    fs.rmSync(path.join(migrations, '0001_more.sql'));
    expect(usableTemplate(template, migrations)).toBe(path.join(template, 'pgdata'));
    fs.writeFileSync(path.join(migrations, '0000_init.sql'), 'create table a (id bigint);');
    expect(usableTemplate(template, migrations)).toBeUndefined();
  });

  it('is ignored when missing or incomplete', () => {
    expect(usableTemplate(path.join(root, 'nowhere'), migrations)).toBeUndefined();
    fs.rmSync(path.join(template, 'pgdata', 'PG_VERSION'));
    expect(usableTemplate(template, migrations)).toBeUndefined();
  });
});
