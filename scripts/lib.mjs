// Helpers shared by the root scripts: staleness checks and child processes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

/**
 * Newest modification time (ms) of the files under `dirs`, skipping node_modules and dist.
 * @param {string[]} dirs
 */
export function newestMtime(dirs) {
  let newest = 0;
  /** @param {string} p */
  const walk = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) {
        if (name === 'node_modules' || name === 'dist') continue;
        walk(path.join(p, name));
      }
    } else if (st.mtimeMs > newest) newest = st.mtimeMs;
  };
  for (const d of dirs) walk(path.join(root, d));
  return newest;
}

/**
 * True when `output` is missing or older than any file under `inputs`.
 * @param {string} output @param {string[]} inputs
 */
export function isStale(output, inputs) {
  try {
    return fs.statSync(path.join(root, output)).mtimeMs < newestMtime(inputs);
  } catch {
    return true;
  }
}

/**
 * Runs a command with inherited output; resolves with its exit code.
 * @param {string} cmd @param {string[]} args @param {import('node:child_process').SpawnOptions} [opts]
 * @returns {Promise<number>}
 */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const SHARED_BUILD_INPUTS = ['packages/shared/src', 'package-lock.json'];

/** True when the server's build (apps/server/dist) is missing or older than a source it is built from. */
export function serverBuildIsStale() {
  return isStale('apps/server/dist/main.js', [
    'apps/server/src',
    'apps/server/drizzle',
    'apps/server/build.mjs',
    ...SHARED_BUILD_INPUTS,
  ]);
}

/** Builds the console and the server when their outputs are missing or older than their sources. */
export async function buildIfStale() {
  if (
    isStale('apps/web/dist/login-dark.html', [
      'apps/web/src',
      'apps/web/index.html',
      'apps/web/login.html',
      'apps/web/scripts',
      'apps/web/vite.config.ts',
      ...SHARED_BUILD_INPUTS,
    ])
  ) {
    console.log('Building the console…');
    if ((await run('npm', ['run', 'build', '-w', 'apps/web'])) !== 0) process.exit(1);
  }
  if (serverBuildIsStale()) {
    console.log('Building the server…');
    if ((await run('npm', ['run', 'build', '-w', 'apps/server'])) !== 0) process.exit(1);
  }
}

/**
 * Node options of every server process the scripts and benchmarks start, as `npm start` runs it
 * (docs/decisions.md "Server process"): V8's young generation at 32 MiB a semi-space (16 by
 * default). At thousands of device reports a second the default scavenged every 50 ms and promoted
 * what a flush still held (about 25 MB/s), whose mark-compacts stalled the event loop for 75 ms.
 * One V8 background thread instead of four: each thread that compiled PGlite's WebAssembly at
 * start kept its own malloc arena, 10–18 MB each of freed but resident memory, about 30 MB of the
 * idle server (docs/decisions/2026-11-29-server-one-v8-thread.md).
 */
export const SERVER_NODE_FLAGS = ['--enable-source-maps', '--max-semi-space-size=32', '--v8-pool-size=1'];

/**
 * Environment of every server process the scripts and benchmarks start, as `npm start` runs it
 * (an operator's own value wins). glibc's malloc serves a block of 128 KiB or more with its own
 * mapping and returns it on free; after the first such free it raises that limit to the block's
 * size, and later blocks (argon2's 19 MiB per password hash, on the thread pool) stay in the
 * threads' arenas for good: 40–60 MB of the idle server's RSS (bench/notes/server-memory.md).
 * A fixed limit keeps the first behaviour. Other C libraries ignore the variable.
 */
export const SERVER_PROCESS_ENV = { MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072' };

/** Flags of every headless Chromium run by the scripts and benchmarks (e2e/helpers/browser.ts has its own copy in TypeScript). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's Chromium, if installed (never a downloaded browser). */
export function chromiumPath() {
  const candidate = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return fs.existsSync(candidate) ? candidate : undefined;
}
