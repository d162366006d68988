// What bench/flood.mjs watches and the unauthenticated load it sends itself: the server's RSS
// (VmRSS from /proc, sampled), its MQTT counters (`GET /readyz`, whatever they hold), and K raw
// TCP connections that announce an oversized CONNECT and then stream 1 MiB chunks.
import fs from 'node:fs';
import net from 'node:net';
import { HOST, onCleanup } from './lib.mjs';

const MB = 1024 * 1024;

/** VmRSS of a process in MB (binary: MiB), or NaN once it is gone. */
export function rssMb(pid) {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line.split(/\s+/)[1]) / 1024; // kB
  } catch {
    return NaN;
  }
}

/**
 * Samples a process's RSS every `intervalMs` until stop(): peak since start or the last mark(),
 * and `onOver()` once the RSS passes `capMb` (the caller stops its load at once).
 */
export class RssWatch {
  constructor(pid, { intervalMs = 50, capMb = Infinity, onOver = () => {} } = {}) {
    this.pid = pid;
    this.peak = rssMb(pid);
    this.over = false;
    this.timer = setInterval(() => {
      const v = rssMb(pid);
      if (v > this.peak) this.peak = v;
      if (v > capMb && !this.over) {
        this.over = true;
        onOver(v);
      }
    }, intervalMs);
    onCleanup(() => this.stop());
  }
  /** Starts a new peak; answers the RSS now. */
  mark() {
    return (this.peak = rssMb(this.pid));
  }
  stop() {
    clearInterval(this.timer);
  }
}

/** The mean RSS over `ms`, sampled every 50 ms (one sample misses a collection in flight). */
export async function steadyRssMb(pid, ms = 1000) {
  const samples = [];
  for (const end = performance.now() + ms; performance.now() < end;) {
    samples.push(rssMb(pid));
    await new Promise((r) => setTimeout(r, 50));
  }
  return samples.reduce((a, b) => a + b, 0) / samples.length;
}

/** Every numeric leaf of an object as `a.b.c` → number (the MQTT counters of /readyz, whatever they are). */
export function flatten(value, prefix = '', out = {}) {
  if (typeof value === 'number') out[prefix] = value;
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

/** The counters that moved between two flatten()ed snapshots: name → difference. */
export function moved(before, after) {
  return Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)])
      .filter(([, d]) => d !== 0),
  );
}

/** The MQTT side's counters from GET /readyz, flattened (an empty object if it does not answer). */
export async function mqttCounters(url) {
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) });
    const { mqtt = {} } = await res.json();
    return flatten({ ...mqtt, url: undefined });
  } catch {
    return {};
  }
}

/**
 * K unauthenticated connections to the MQTT port, each sending a CONNECT fixed header that claims
 * 268,435,455 bytes (`10 ff ff ff 7f`) and then 1 MiB chunks, written when the socket drains,
 * until `maxBytes` went out on it, the server closed it, `seconds` passed or stop() is called.
 * `done` resolves once every connection has stopped sending, with what each sent and whether the
 * server closed it (and after how long); connections still open stay open until closeAll().
 */
export function oversizedConnects(port, k, { maxBytes, seconds }) {
  const chunk = Buffer.alloc(MB, 0x41);
  const deadline = performance.now() + seconds * 1000;
  const sockets = [];
  let stopped = false;
  let closing = false;
  const one = () =>
    new Promise((resolve) => {
      const r = { sent: 0, closedByServer: false, closedAfterMs: NaN, error: null };
      const t0 = performance.now();
      const s = net.connect(port, HOST);
      sockets.push(s);
      const settle = () => (clearTimeout(timer), resolve(r));
      const timer = setTimeout(settle, Math.max(0, deadline - performance.now()));
      const pump = () => {
        while (!stopped && r.sent < maxBytes && performance.now() < deadline && !s.destroyed) {
          r.sent += MB;
          if (!s.write(chunk)) return; // 'drain' calls pump again
        }
        settle();
      };
      s.on('connect', () => {
        s.write(Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]));
        pump();
      });
      s.on('drain', pump);
      s.on('error', (err) => (r.error = err.code ?? err.message));
      s.on('close', () => {
        if (!closing) {
          r.closedByServer = true;
          r.closedAfterMs = performance.now() - t0;
        }
        settle();
      });
      s.on('data', () => {}); // whatever the server answers (nothing, or a CONNACK refusal)
    });
  const done = Promise.all(Array.from({ length: k }, one));
  const closeAll = () => {
    closing = true;
    for (const s of sockets) s.destroy();
  };
  onCleanup(closeAll);
  return {
    done,
    stop: () => void (stopped = true),
    closeAll,
  };
}
