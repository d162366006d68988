import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';

const scriptsLib = pathToFileURL(path.resolve(import.meta.dirname, '../../../../scripts/lib.mjs')).href;

/** The node options `npm start`, the demo and the benchmarks give the server (scripts/lib.mjs). */
function serverNodeFlags(): string[] {
  const code = `import { SERVER_NODE_FLAGS } from ${JSON.stringify(scriptsLib)}; process.stdout.write(JSON.stringify(SERVER_NODE_FLAGS));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' }),
  ) as string[];
}

/** How many threads a node process started with `flags` has once it runs its first line. */
function threads(flags: string[]): number {
  const code = 'process.stdout.write(String(require("node:fs").readdirSync("/proc/self/task").length))';
  return Number(execFileSync(process.execPath, [...flags, '-e', code], { encoding: 'utf8' }));
}

test('npm start runs the server with one V8 background thread, not four', () => {
  // Each of V8's background threads that compiled PGlite's WebAssembly kept its own malloc arena
  // of freed memory: about 30 MB of the idle server (docs/decisions/2026-11-29-server-one-v8-thread.md).
  const flags = serverNodeFlags();
  const others = flags.filter((f) => !f.startsWith('--v8-pool-size'));
  expect(threads(flags)).toBe(threads([...others, '--v8-pool-size=4']) - 3);
});
