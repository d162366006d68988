// Load generators of bench/mqtt.mjs: the simulated fleet (mqtt.js clients spread over worker
// threads, see mqtt-clients.mjs) and an open-loop HTTP schedule. Both run in the bench's own
// process, never in the server's; their CPU use is measured so a saturated generator shows. Also
// what the kernel says about the load: file-descriptor limit, accept queue, listen overflows.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { onCleanup } from './lib.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Device i (1-based) is named like bench/mqtt-server.ts fills them: 12 hex digits. */
export const deviceName = (i) => i.toString(16).padStart(12, '0');

/**
 * `devices` simulated devices over `threads` worker threads, in contiguous slices. Each step is
 * sent to every thread and resolves with their answers once all have answered (or rejects after
 * `timeoutMs`). Registered for cleanup: the threads end with the bench, also on error.
 */
export class Fleet {
  constructor(devices, threads) {
    this.workers = [];
    this.slices = [];
    for (let t = 0; t < threads; t++) {
      const from = Math.floor((t * devices) / threads) + 1;
      const to = Math.floor(((t + 1) * devices) / threads);
      this.slices.push(Array.from({ length: to - from + 1 }, (_, k) => deviceName(from + k)));
      const worker = new Worker(path.join(import.meta.dirname, 'mqtt-clients.mjs'));
      worker.waiters = [];
      worker.on('message', (msg) => worker.waiters.shift()?.resolve(msg));
      worker.on('error', (err) => worker.waiters.splice(0).forEach((w) => w.reject(err)));
      this.workers.push(worker);
    }
    onCleanup(() => this.terminate());
  }

  /** Sends `msg` (or `perThread(t)`'s message) to every thread; resolves with the answers in thread order. */
  step({ perThread, ...msg }, timeoutMs = 120_000) {
    return Promise.all(
      this.workers.map(
        (w, t) =>
          new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`${msg.cmd}: no answer in ${timeoutMs} ms`)), timeoutMs);
            w.waiters.push({ resolve: (m) => (clearTimeout(timer), resolve(m)), reject });
            w.postMessage({ ...msg, ...perThread?.(t) });
          }),
      ),
    );
  }

  /** Event-loop utilisation of each thread since `since` (an earlier answer of this call). */
  elu(since) {
    return this.workers.map((w, t) => w.performance.eventLoopUtilization(since?.[t]));
  }

  async terminate() {
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }
}

/**
 * Fires `request(i)` ({method, path, body?}) at a steady `rate` per second for `warmup` + `seconds`
 * without waiting for answers (open loop: a slow answer does not delay the next request, so it
 * cannot hide its own queueing). Latency runs from each request's scheduled time to the end of its
 * answer; the warm-up's are dropped (`onMeasure` is called when the measured part starts, and
 * `onLatency(i, ms)` for each measured answer). Resolves with {latencies, statuses, maxLagMs, elapsedMs}.
 */
export async function openLoop(
  baseUrl,
  headers,
  { rate, seconds, warmup, request, onMeasure = () => {}, onLatency = () => {} },
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  onCleanup(() => agent.destroy());
  const period = 1000 / rate;
  const skip = Math.round(rate * warmup);
  const total = skip + Math.round(rate * seconds);
  const latencies = [];
  const statuses = {};
  let maxLagMs = 0;
  const pending = [];
  const t0 = performance.now() + 5;
  for (let i = 0; i < total; i++) {
    const due = t0 + i * period;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    if (i === skip) onMeasure();
    if (i >= skip) maxLagMs = Math.max(maxLagMs, performance.now() - due);
    pending.push(
      send(agent, baseUrl, headers, request(i)).then((status) => {
        if (i < skip) return;
        latencies.push(performance.now() - due);
        onLatency(i - skip, latencies.at(-1));
        statuses[status] = (statuses[status] ?? 0) + 1;
      }),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  return { latencies, statuses, maxLagMs, elapsedMs: performance.now() - t0 - skip * period };
}

/** One request on the keep-alive agent; resolves with the status (0: socket error or 15 s timeout). */
function send(agent, baseUrl, headers, { method, path: p, body }) {
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      baseUrl + p,
      {
        method,
        agent,
        headers: data ? { ...headers, 'content-type': 'application/json', 'content-length': data.length } : headers,
      },
      (res) => {
        res.resume().on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', () => resolve(0)).setTimeout(15_000, () => req.destroy(new Error('timeout')));
    req.end(data);
  });
}

// ---- the kernel's view ---------------------------------------------------------------------------

/**
 * This process and the broker's each hold one end of every device connection: both need `N` file
 * descriptors plus headroom (the database, the worker threads, the HTTP clients). Answers
 * the soft limit; throws, saying what to run, when it is too low.
 */
export function checkFdLimit(N) {
  const soft = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim();
  const need = N + 1024;
  if (soft !== 'unlimited' && Number(soft) < need)
    throw new Error(`ulimit -n is ${soft}; ${N} devices need ≥ ${need} per process: run \`ulimit -n ${need}\` first`);
  return soft;
}

/** TcpExtListenOverflows of this network namespace (a connect the broker was too busy to accept). */
export function listenOverflows() {
  const [names, values] = fs
    .readFileSync('/proc/net/netstat', 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('TcpExt:'))
    .map((l) => l.split(' '));
  return Number(values?.[names.indexOf('ListenOverflows')] ?? NaN);
}

/** Connections waiting to be accepted on a listening loopback port (from /proc/net/tcp). */
export function acceptQueueLength(port) {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of fs.readFileSync('/proc/net/tcp', 'utf8').split('\n')) {
    const f = line.trim().split(/\s+/);
    // local address, state 0A = LISTEN, tx_queue:rx_queue (rx = the accept queue for a listener)
    if (f[1]?.endsWith(hex) && f[3] === '0A') return parseInt(f[4].split(':')[1], 16);
  }
  return 0;
}
