import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileTooBig } from '@fleet/shared/constants';
import { createLocalBlobStore } from '../../src/storage/local-blob-store.ts';
import { sweepDetachedUploads } from '../../src/domain/files/sweep-detached-uploads.ts';
import type { TestServer } from '../helpers/server.ts';
import { startForUploads, storedKeys, upload } from '../helpers/uploads.ts';

/** Files and firmware of sites and groups: targets by id, the spec's limit and device-type cases. */
let s: TestServer;
let ACME = '';
let GLOBEX = '';
let t: Record<'admin' | 'other' | 'operator', string>;
let siteId = '';
let groupId = '';

beforeAll(async () => {
  ({ s, acme: ACME, globex: GLOBEX, tokens: t } = await startForUploads());
  const site = await s.request('POST', `/api/v1/tenant/${ACME}/site`, {
    token: t.admin,
    body: { document: { name: 'north', description: '', gps_coordinates: [52.1, 4.3] } },
  });
  expect(site.status).toBe(201);
  siteId = site.body.data.id;
  const group = await s.request('POST', `/api/v1/tenant/${ACME}/dispenser`, {
    token: t.admin,
    body: { document: { name: 'line_2', description: '' } },
  });
  groupId = group.body.data.id;
});
afterAll(async () => s?.close());

const fw = (e = ACME) => `/api/v1/tenant/${e}/firmware`;

describe('site and group levels', () => {
  it('uploads at a site and a group, lists and deletes all by type (CC2 for sites, cc2 for groups)', async () => {
    const a = await upload(s, fw(), t.admin, {
      field: 'firmware_file',
      fields: { level: 'site', site_id: siteId, version: '1.0.0', device_type: 'CC2', description: '' },
      bytes: 100,
    });
    expect(a.status).toBe(201);
    const b = await upload(s, fw(), t.admin, {
      field: 'firmware_file',
      fields: { level: 'group', group_id: groupId, version: '1.0.0', device_type: 'cc2', description: '' },
      bytes: 100,
    });
    expect(b.status).toBe(201);
    const list = await s.request('GET', `${fw()}?level=site&site_id=${siteId}&device_type=CC2`, { token: t.operator });
    expect(list.body.files).toHaveLength(1);
    const site = await s.request('DELETE', `${fw()}/all?level=site&site_id=${siteId}&device_type=CC2`, {
      token: t.admin,
    });
    expect(site.body.deleted).toBe(1);
    const group = await s.request('DELETE', `${fw()}/all?level=group&group_id=${groupId}&device_type=cc2`, {
      token: t.admin,
    });
    expect(group.body.deleted).toBe(1);
  });

  it('refuses one byte over 10000000 with the spec message, and another entity’s site', async () => {
    const over = await upload(s, `/api/v1/tenant/${ACME}/files`, t.admin, {
      fields: { level: 'site', site_id: siteId },
      bytes: 10_000_001,
    });
    expect(over.status).toBe(413);
    expect(over.body.errorInfo.userMessage).toBe(fileTooBig(10_000_000));
    const foreign = await upload(s, `/api/v1/tenant/${GLOBEX}/files`, t.other, {
      fields: { level: 'site', site_id: siteId },
      bytes: 10,
    });
    expect(foreign.status).toBe(404);
  });

  it('removes the uploads of a deleted group, with their bytes', async () => {
    const f = await upload(s, `/api/v1/tenant/${ACME}/files`, t.admin, {
      fields: { level: 'group', group_id: groupId },
      bytes: 10,
    });
    expect(f.status).toBe(201);
    expect((await s.request('DELETE', `/api/v1/tenant/${ACME}/dispenser/line_2`, { token: t.admin })).status).toBe(200);
    const before = await storedKeys(s);
    expect(before).toHaveLength(1);
    // The sweep the server runs every 5 minutes, with a store on the same folder.
    const blobs = await createLocalBlobStore(path.join(s.config.dataDir, 'blobs'));
    expect(await sweepDetachedUploads(s.app.db, blobs)).toBe(1);
    expect(await storedKeys(s)).toEqual([]);
  });
});
