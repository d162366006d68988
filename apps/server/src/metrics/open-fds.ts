import fs from 'node:fs';
import { Gauge, type Registry } from 'prom-client';

const NAME = 'process_open_fds';

/**
 * How many descriptors the process has open, without listing them: since Linux 6.2 a `stat` of
 * `/proc/self/fd` gives the count as its size (the kernel counts its open-descriptor bitmap). On an
 * older kernel the size is 0, and the directory is listed on libuv's thread pool instead (the
 * listing's own descriptor not counted). Listing it costs a lot with many sockets: at 10,000
 * devices connected, 32 ms of a thread-pool thread and 10,000 names made into strings on the main
 * thread, at every scrape (bench/notes/metrics-cost.md).
 */
export async function countOpenFds(dir = '/proc/self/fd'): Promise<number> {
  const { size } = await fs.promises.stat(dir);
  if (size > 0) return size;
  return (await fs.promises.readdir(dir)).length - 1;
}

/**
 * prom-client's `process_open_fds` (Linux), counted by countOpenFds: its own lists `/proc/self/fd`
 * with readdirSync at every scrape, one entry a socket. Same name, help and figure.
 */
export function openFdsWithoutBlocking(registry: Registry): void {
  if (!registry.getSingleMetric(NAME)) return;
  registry.removeSingleMetric(NAME);
  new Gauge({
    name: NAME,
    help: 'Number of open file descriptors.',
    registers: [registry],
    async collect() {
      try {
        this.set(await countOpenFds());
      } catch {
        // As prom-client's: no figure where /proc cannot be read.
      }
    },
  });
}
