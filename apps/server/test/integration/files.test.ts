import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_LIMITS, fileTooBig } from '@fleet/shared/constants';
import { DownloadSigner } from '../../src/storage/signed-urls.ts';
import { startS3, type TestS3 } from '../helpers/s3.ts';
import type { TestServer } from '../helpers/server.ts';
import { eventually } from '../helpers/devices.ts';
import {
  JWT_SECRET,
  startForUploads,
  storedKeys,
  upload,
  uploadCutShort,
  walk,
  writtenSince,
} from '../helpers/uploads.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

// Both blob stores behind the same API: DATA_DIR/blobs, and S3 (s3rver in this process).
describe.each(['local', 's3'] as const)('files and firmware, %s store', (mode) => {
  let s: TestServer;
  let s3: TestS3 | undefined;
  let ACME = '';
  let GLOBEX = '';
  let t: Record<'admin' | 'other' | 'operator', string>;
  const signer = new DownloadSigner(JWT_SECRET);

  const started = Date.now() - 1000;
  beforeAll(async () => {
    if (mode === 's3') s3 = await startS3();
    ({ s, acme: ACME, globex: GLOBEX, tokens: t } = await startForUploads(s3?.env));
  });
  afterAll(async () => {
    await s?.close();
    await s3?.close();
  });

  const files = (e = ACME) => `/api/v1/tenant/${e}/files`;
  const fw = (e = ACME) => `/api/v1/tenant/${e}/firmware`;
  const entityFields = (e = ACME) => ({ level: 'entity', entity_id: e });
  const fwFields = (version: string, device_type = 'CC2', e = ACME) => ({
    ...entityFields(e),
    version,
    device_type,
    description: 'test build',
  });
  const keys = () => storedKeys(s, s3);

  it('uploads a file at entity level, lists it under `files`, deletes it and its bytes', async () => {
    const bytes = randomBytes(200_000);
    const up = await upload(s, files(), t.admin, {
      fields: { ...entityFields(), file_device_path: 'config/app.json' },
      bytes,
      filename: 'app.json',
    });
    expect(up.status).toBe(201);
    expect(up.body.data).toMatchObject({
      level: 'entity',
      target: ACME,
      filename: 'app.json',
      file_device_path: 'config/app.json',
      size_bytes: 200_000,
      sha256: sha(bytes),
    });
    const list = await s.request('GET', `${files()}?level=entity&entity_id=${ACME}`, { token: t.operator });
    expect(list.status).toBe(200);
    expect(list.body.files.map((f: { id: string }) => f.id)).toEqual([up.body.data.id]);
    expect(await keys()).toHaveLength(1);

    const del = await s.request('DELETE', `${files()}/${up.body.data.id}`, { token: t.admin });
    expect(del.status).toBe(200);
    expect(await keys()).toHaveLength(0);
    const again = await s.request('DELETE', `${files()}/${up.body.data.id}`, { token: t.admin });
    expect(again.status).toBe(404);
  });

  it('deletes every file of a target at once', async () => {
    for (const n of [1, 2, 3]) await upload(s, files(), t.admin, { fields: entityFields(), bytes: n * 10 });
    const del = await s.request('DELETE', `${files()}/all?level=entity&entity_id=${ACME}`, { token: t.admin });
    expect(del.body).toMatchObject({ deleted: 3 });
    const list = await s.request('GET', `${files()}?level=entity&entity_id=${ACME}`, { token: t.admin });
    expect(list.body.files).toEqual([]);
    expect(await keys()).toHaveLength(0);
  });

  it('uploads firmware with version and type (any case), refuses the same version twice, lists by type', async () => {
    const a = await upload(s, fw(), t.admin, { field: 'firmware_file', fields: fwFields('1.0.0', 'cc2'), bytes: 4096 });
    expect(a.status).toBe(201);
    expect(a.body.data).toMatchObject({ version: '1.0.0', device_type: 'CC2', size_bytes: 4096 });
    const b = await upload(s, fw(), t.admin, { field: 'firmware_file', fields: fwFields('1.0.0', 'CC1'), bytes: 10 });
    expect(b.status).toBe(201);
    const dup = await upload(s, fw(), t.admin, { field: 'firmware_file', fields: fwFields('1.0.0', 'CC2'), bytes: 9 });
    expect(dup.status).toBe(409);
    expect(await keys()).toHaveLength(2);

    const cc2 = await s.request('GET', `${fw()}?level=entity&entity_id=${ACME}&device_type=cc2`, { token: t.admin });
    expect(cc2.body.files.map((f: { version: string; device_type: string }) => f.device_type)).toEqual(['CC2']);
    const del = await s.request('DELETE', `${fw()}/all?level=entity&entity_id=${ACME}&device_type=cc2`, {
      token: t.admin,
    });
    expect(del.body.deleted).toBe(1);
    const left = await s.request('GET', `${fw()}?level=entity&entity_id=${ACME}`, { token: t.admin });
    expect(left.body.files.map((f: { device_type: string }) => f.device_type)).toEqual(['CC1']);
    await s.request('DELETE', `${fw()}/${b.body.data.id}`, { token: t.admin });
    expect(await keys()).toHaveLength(0);
  });

  it('serves a firmware by signed link, with Range, and refuses a tampered or expired link', async () => {
    const bytes = randomBytes(100_000);
    const up = await upload(s, fw(), t.admin, { field: 'firmware_file', fields: fwFields('2.0.0'), bytes });
    const id = up.body.data.id as string;
    const link = signer.path('firmware', id, new Date(Date.now() + 60_000));
    const whole = await fetch(s.url + link);
    expect(whole.status).toBe(200);
    expect(sha(Buffer.from(await whole.arrayBuffer()))).toBe(sha(bytes));
    const part = await fetch(s.url + link, { headers: { range: 'bytes=50000-' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 50000-99999/100000');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(50_000));
    const beyond = await fetch(s.url + link, { headers: { range: 'bytes=100000-' } });
    expect(beyond.status).toBe(416);

    const tampered = link.replace(/expires=(\d+)/, (_, n) => `expires=${Number(n) + 3600}`);
    expect((await fetch(s.url + tampered)).status).toBe(403);
    const forged = link.replace(/signature=.{4}/, 'signature=AAAA');
    expect((await fetch(s.url + forged)).status).toBe(403);
    const expired = signer.path('firmware', id, new Date(Date.now() - 1000));
    const res = await fetch(s.url + expired);
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).errorInfo.userMessage).toBe('The download link has expired');
    await s.request('DELETE', `${fw()}/${id}`, { token: t.admin });
    expect((await fetch(s.url + link)).status).toBe(404);
  });

  describe('hostile uploads are refused with nothing stored', () => {
    const refused = async (res: { status: number; body: any }, status: number) => {
      expect(res.status).toBe(status);
      expect(res.body.errorInfo).toBeDefined();
      expect(await keys()).toEqual([]);
    };

    it('`../` and absolute paths in the file name', async () => {
      for (const filename of ['../../evil.bin', '/tmp/evil.bin', '..\\evil.bin', '..']) {
        await refused(await upload(s, files(), t.admin, { fields: entityFields(), bytes: 10, filename }), 400);
      }
    });

    it('`../` and absolute paths in the device path answer Invalid device path format', async () => {
      for (const file_device_path of ['../evil.bin', '/etc/evil', 'a/../../evil', 'a//b', 'a\\b']) {
        const res = await upload(s, files(), t.admin, { fields: { ...entityFields(), file_device_path }, bytes: 10 });
        await refused(res, 400);
        expect(res.body.errorInfo.userMessage).toBe('Invalid device path format');
        expect(res.body.errorInfo.developerMessage).toContain('file_device_path');
      }
    });

    it('a file one byte over the limit answers the spec message; one at the limit is kept', async () => {
      const limit = FILE_LIMITS.entityUpload;
      const over = await upload(s, files(), t.admin, { fields: entityFields(), bytes: limit + 1 });
      await refused(over, 413);
      expect(over.body.errorInfo.userMessage).toBe(fileTooBig(limit));
      const over2 = await upload(s, fw(), t.admin, {
        field: 'firmware_file',
        fields: fwFields('9.9.9'),
        bytes: limit + 1,
      });
      await refused(over2, 413);
      const at = await upload(s, files(), t.admin, { fields: entityFields(), bytes: limit });
      expect(at.status).toBe(201);
      await s.request('DELETE', `${files()}/${at.body.data.id}`, { token: t.admin });
    });

    it('zero bytes, a wrong field name, an unknown device type, a missing version', async () => {
      await refused(await upload(s, files(), t.admin, { fields: entityFields(), bytes: 0 }), 400);
      await refused(await upload(s, files(), t.admin, { fields: entityFields(), field: 'upload', bytes: 10 }), 400);
      await refused(await upload(s, fw(), t.admin, { fields: fwFields('1.0.0'), field: 'file', bytes: 10 }), 400);
      const unknownType = await upload(s, fw(), t.admin, {
        field: 'firmware_file',
        fields: fwFields('1.0.0', 'CC9'),
        bytes: 10,
      });
      await refused(unknownType, 400);
      expect(unknownType.body.errorInfo.details.device_type).toBeDefined();
      const noVersion = await upload(s, fw(), t.admin, {
        field: 'firmware_file',
        fields: { ...entityFields(), device_type: 'CC2' },
        bytes: 10,
      });
      await refused(noVersion, 400);
      const nul = await upload(s, fw(), t.admin, {
        field: 'firmware_file',
        fields: { ...fwFields('1.0.1'), description: 'bad\u0000text' },
        bytes: 10,
      });
      await refused(nul, 400);
      expect(nul.body.errorInfo.details.description).toEqual(['Text may not contain the null character (U+0000)']);
    });

    it('a body cut mid-upload leaves no record and no bytes', async () => {
      await uploadCutShort(s, files(), t.admin, entityFields());
      await eventually(async () => expect(await keys()).toEqual([]));
      const list = await s.request('GET', `${files()}?level=entity&entity_id=${ACME}`, { token: t.admin });
      expect(list.body.files).toEqual([]);
      if (mode === 'local') {
        const tmp = await walk(`${s.config.dataDir}/blobs/tmp`);
        await eventually(async () => expect(await walk(`${s.config.dataDir}/blobs/tmp`)).toEqual([]));
        expect(tmp.length).toBeLessThanOrEqual(1);
      }
    });

    it('another entity: its target, its file ids and its lists answer 404 or 403, never data', async () => {
      const mine = await upload(s, files(), t.admin, { fields: entityFields(), bytes: 10 });
      const theirs = await upload(s, files(), t.other, { fields: entityFields(ACME), bytes: 10 });
      expect(theirs.status).toBe(404);
      const wrongTarget = await upload(s, files(GLOBEX), t.other, { fields: entityFields(ACME), bytes: 10 });
      expect(wrongTarget.status).toBe(404);
      expect((await s.request('DELETE', `${files(GLOBEX)}/${mine.body.data.id}`, { token: t.other })).status).toBe(404);
      const list = await s.request('GET', `${files()}?level=entity&entity_id=${ACME}`, { token: t.other });
      expect([403, 404]).toContain(list.status);
      expect(list.body.files).toBeUndefined();
      expect((await s.request('DELETE', `${files()}/not-a-uuid`, { token: t.admin })).status).toBe(404);
      await s.request('DELETE', `${files()}/${mine.body.data.id}`, { token: t.admin });
      expect(await keys()).toEqual([]);
    });

    it('operators list but cannot upload or delete', async () => {
      const res = await upload(s, files(), t.operator, { fields: entityFields(), bytes: 10 });
      await refused(res, 403);
      const del = await s.request('DELETE', `${files()}/all?level=entity&entity_id=${ACME}`, { token: t.operator });
      expect(del.status).toBe(403);
    });

    it('nothing named by a client was written anywhere on disk', async () => {
      const written = [...(await walk(s.config.dataDir)), ...(await writtenSince(os.tmpdir(), started))];
      expect(written.filter((f) => f.includes('evil'))).toEqual([]);
    });
  });
});
