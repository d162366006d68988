import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DFU_ERRORS, fetchFirmware } from './dfu.ts';

const image = randomBytes(256 * 1024);
const ranges: string[] = [];
let server: http.Server;
let url = '';

// A download endpoint like the server's: whole image, or one Range with 206.
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    ranges.push(req.headers.range ?? 'all');
    const start = m ? Number(m[1]) : 0;
    res.writeHead(m ? 206 : 200, { 'content-length': image.length - start });
    res.end(image.subarray(start));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fw`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const payload = () => ({
  type: 'dfu' as const,
  firmware_id: '0b5f7a1e-6c1d-4f7e-9a55-2f8f3b1d9c01',
  version: '3.0.0',
  url,
  sha256: createHash('sha256').update(image).digest('hex'),
  size: image.length,
});

describe('simulated firmware download', () => {
  it('downloads, verifies and reports progress', async () => {
    const phases: string[] = [];
    expect(await fetchFirmware(payload(), 'none', (phase, p) => void phases.push(`${phase} ${p}`))).toBeNull();
    expect(phases.at(-1)).toBe('verifying 100');
    expect(phases).toContain('downloading 100');
  });

  it('resumes with Range after the link drops halfway', async () => {
    ranges.length = 0;
    expect(await fetchFirmware(payload(), 'flaky-link', () => {})).toBeNull();
    expect(ranges).toHaveLength(2);
    expect(ranges[0]).toBe('all');
    expect(ranges[1]).toMatch(/^bytes=\d+-$/);
  });

  it('fails with the reason when told to: bad hash, a download that never completes, a refusal', async () => {
    expect(await fetchFirmware(payload(), 'bad-hash', () => {})).toBe(DFU_ERRORS.hash);
    expect(await fetchFirmware(payload(), 'download-failed', () => {})).toMatch(/^download failed: connection lost/);
    expect(await fetchFirmware(payload(), 'refuse', () => {})).toBe(DFU_ERRORS.refused);
    expect(
      await fetchFirmware({ ...payload(), url: `${url}/gone`.replace(/:\d+\//, ':1/') }, 'none', () => {}),
    ).toMatch(/^download failed/);
  });
});
