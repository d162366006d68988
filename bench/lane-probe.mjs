// Bench-only probe (NODE_OPTIONS="--import=<this>" LANE_PROBE=<file>): where a GET waits.
// In the server (dist/main.js): every statement on a pg client (text, send → answer), every
// checkout (asked → granted, the statement running when asked, the caller's request), every HTTP
// request (arrived → finished), and once a second the main thread's event-loop delay, its CPU and
// utilisation, and the PGlite thread's utilisation. In the bench process: its own event-loop delay
// and each `GET …/device/<name>`'s time as the bench sees it. Appends JSON lines to LANE_PROBE(.bench).
// Costs a clock read and an object a statement; never loaded by the product.
//   NODE_OPTIONS=--import=$PWD/bench/lane-probe.mjs LANE_PROBE=/tmp/lane.jsonl node bench/rollout.mjs --devices=2000
//   node bench/lane-report.mjs /tmp/lane.jsonl
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import wt from 'node:worker_threads';

const OUT = process.env.LANE_PROBE;
const server = /dist[\\/]main\.js$/.test(process.argv[1] ?? '');
const now = () => performance.timeOrigin + performance.now();
const GET_DEVICE = /\/device\/[^/?]+$/;

if (OUT && wt.isMainThread) {
  const file = server ? OUT : `${OUT}.bench`;
  let lines = [];
  const emit = (o) => lines.push(JSON.stringify(o));
  const flush = () => {
    if (lines.length) fs.appendFileSync(file, lines.join('\n') + '\n');
    lines = [];
  };
  const eld = monitorEventLoopDelay({ resolution: 5 });
  eld.enable();
  let elu = performance.eventLoopUtilization();
  const workers = [];
  const workerElu = new Map();
  const ticks = () => {
    try {
      const f = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(f[11]) + Number(f[12])) * 10; // ms (USER_HZ 100)
    } catch {
      return 0;
    }
  };
  let mainCpu = ticks();
  let cpu = process.cpuUsage();
  let connBusy = 0;
  setInterval(() => {
    const e = performance.eventLoopUtilization(elu);
    elu = performance.eventLoopUtilization();
    const c = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const m = ticks();
    const s = {
      k: 's',
      t: now(),
      eldMean: eld.mean / 1e6,
      eldP99: eld.percentile(99) / 1e6,
      eldMax: eld.max / 1e6,
      elu: e.utilization,
      mainCpuMs: m - mainCpu,
      procCpuMs: (c.user + c.system) / 1000,
      connBusyMs: connBusy,
    };
    mainCpu = m;
    connBusy = 0;
    eld.reset();
    for (const w of workers) {
      const prev = workerElu.get(w);
      const cur = w.performance.eventLoopUtilization();
      if (prev) s.dbElu = w.performance.eventLoopUtilization(cur, prev).utilization;
      workerElu.set(w, cur);
    }
    emit(s);
    flush();
  }, 1000).unref();

  if (server) {
    // The database thread, to read its utilisation.
    const Orig = wt.Worker;
    wt.Worker = class extends Orig {
      constructor(url, opts) {
        super(url, opts);
        if (String(url).includes('pglite-worker')) workers.push(this);
      }
    };
    syncBuiltinESMExports();
    // The request context's storage (interactive-context.ts): its store is the response.
    let als = null;
    const run = AsyncLocalStorage.prototype.run;
    AsyncLocalStorage.prototype.run = function (store, ...rest) {
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- the storage itself is what is kept
      if (!als && store instanceof http.ServerResponse) als = this;
      return run.call(this, store, ...rest);
    };
    let reqId = 0;
    const emitServer = http.Server.prototype.emit;
    http.Server.prototype.emit = function (ev, req, res) {
      if (ev === 'request') {
        const r = { k: 'r', id: ++reqId, m: req.method, u: req.url, t0: now(), wait: 0, waits: [], sql: 0, n: 0 };
        res.__probe = r;
        res.once('finish', () => {
          r.t1 = now();
          if (r.m !== 'GET' || GET_DEVICE.test(r.u) || /rollouts|dfu|\/device\?/.test(r.u)) emit(r);
        });
      }
      return emitServer.apply(this, arguments);
    };
    const req = createRequire(path.join(process.cwd(), 'package.json'));
    const pg = req('pg');
    let stId = 0;
    let current = null; // the statement on the connection (PGlite: one)
    const texts = new Map();
    const textId = (t) => {
      const key = t.replace(/\s+/g, ' ').slice(0, 200);
      let id = texts.get(key);
      if (id === undefined) {
        id = texts.size;
        texts.set(key, id);
        emit({ k: 't', id, text: key });
      }
      return id;
    };
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (config, ...rest) {
      const text = typeof config === 'string' ? config : (config?.text ?? '');
      const owner = this.__owner;
      const st = { k: 'q', id: ++stId, t0: now(), x: textId(text), i: owner ? 1 : 0, r: owner?.id };
      current = st;
      const done = () => {
        st.t1 = now();
        connBusy += st.t1 - st.t0;
        if (current === st) current = null;
        if (owner) {
          owner.sql += st.t1 - st.t0;
          owner.n++;
        }
        emit(st);
      };
      const last = rest.length - 1;
      if (typeof rest[last] === 'function') {
        const cb = rest[last];
        rest[last] = (...a) => {
          done();
          return cb(...a);
        };
        return query.call(this, config, ...rest);
      }
      const ans = query.call(this, config, ...rest);
      if (ans && typeof ans.then === 'function') ans.then(done, done);
      return ans;
    };
    const poolProto = Object.getPrototypeOf(pg.Pool.prototype);
    const original = poolProto.connect;
    const wrap = (fn) =>
      function (cb) {
        const res = als?.getStore();
        const owner = res && !res.destroyed ? res.__probe : undefined;
        const asked = now();
        const behind = current ? current.id : 0;
        const firstAfter = stId + 1;
        const got = (client) => {
          const w = now() - asked;
          if (owner) {
            owner.wait += w;
            owner.waits.push([
              Math.round(w * 10) / 10,
              behind,
              firstAfter,
              stId,
              Math.round((asked - owner.t0) * 10) / 10,
            ]);
          }
          if (client) client.__owner = owner;
        };
        if (cb)
          return fn.call(this, (err, client, done) => {
            got(client);
            cb(err, client, done);
          });
        return fn.call(this).then((client) => {
          got(client);
          return client;
        });
      };
    Object.defineProperty(pg.Pool.prototype, 'connect', {
      configurable: true,
      get() {
        return this.__connect ?? original;
      },
      set(fn) {
        this.__connect = wrap(fn);
      },
    });
  } else {
    const f = globalThis.fetch;
    globalThis.fetch = async (url, init) => {
      const u = String(url);
      if ((init?.method ?? 'GET') !== 'GET' || !GET_DEVICE.test(u)) return f(url, init);
      const t0 = now();
      const r = await f(url, init);
      const body = await r.text();
      emit({ k: 'c', u: new URL(u).pathname, t0, t1: now() });
      return new Response(body, { status: r.status, headers: r.headers });
    };
    process.on('exit', flush);
  }
}
