import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countOpenFds } from './open-fds.ts';

afterEach(() => vi.restoreAllMocks());

describe('open descriptors counted without listing them', () => {
  it("takes the count from the directory's size, never listing it (a listing is one name a socket)", async () => {
    vi.spyOn(fs.promises, 'stat').mockResolvedValue({ size: 10_042 } as fs.Stats);
    const readdir = vi.spyOn(fs.promises, 'readdir');
    expect(await countOpenFds()).toBe(10_042);
    expect(readdir).not.toHaveBeenCalled();
  });

  it('lists the directory where the kernel gives no size (before Linux 6.2), its own descriptor not counted', async () => {
    vi.spyOn(fs.promises, 'stat').mockResolvedValue({ size: 0 } as fs.Stats);
    vi.spyOn(fs.promises, 'readdir').mockResolvedValue(['0', '1', '2', '3'] as never);
    expect(await countOpenFds()).toBe(3);
  });

  it.runIf(process.platform === 'linux')('gives the figure a listing gives, here', async () => {
    const opened = Array.from({ length: 50 }, () => fs.openSync('/dev/null', 'r'));
    try {
      const counted = await countOpenFds();
      const listed = fs.readdirSync('/proc/self/fd').length - 1;
      expect(Math.abs(counted - listed)).toBeLessThanOrEqual(2);
      expect(counted).toBeGreaterThanOrEqual(50);
    } finally {
      for (const fd of opened) fs.closeSync(fd);
    }
  });
});
