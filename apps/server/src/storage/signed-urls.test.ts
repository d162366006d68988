import { describe, expect, it } from 'vitest';
import { parseRange } from './byte-range.ts';
import { DownloadSigner } from './signed-urls.ts';

const ID = '0b5f7a1e-6c1d-4f7e-9a55-2f8f3b1d9c01';
const parts = (p: string) => {
  const u = new URL(p, 'http://x');
  return { expires: Number(u.searchParams.get('expires')), signature: u.searchParams.get('signature')! };
};

describe('signed download links', () => {
  const signer = new DownloadSigner('a-secret-that-is-long-enough-for-tests-0123');
  const link = parts(signer.path('firmware', ID, new Date(Date.now() + 60_000)));

  it('verify a link it made until it expires', () => {
    expect(signer.verify('firmware', ID, link.expires, link.signature)).toBe('ok');
    expect(signer.verify('firmware', ID, link.expires, link.signature, (link.expires + 1) * 1000)).toBe('expired');
  });

  it('refuse a link with any part changed, or made with another secret', () => {
    expect(signer.verify('file', ID, link.expires, link.signature)).toBe('bad');
    expect(signer.verify('firmware', ID.replace('0b', '0c'), link.expires, link.signature)).toBe('bad');
    expect(signer.verify('firmware', ID, link.expires + 3600, link.signature)).toBe('bad');
    expect(signer.verify('firmware', ID, link.expires, link.signature.slice(0, -1))).toBe('bad');
    expect(signer.verify('firmware', ID, link.expires, `${link.signature}A`)).toBe('bad');
    const other = new DownloadSigner('another-secret-that-is-long-enough-for-tests');
    expect(other.verify('firmware', ID, link.expires, link.signature)).toBe('bad');
  });
});

describe('Range header', () => {
  it('answers one range, the whole blob, or unsatisfiable', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-5', 100)).toEqual({ start: 95, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=20-10', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });
});
