import v8 from 'node:v8';
import vm from 'node:vm';

export type Gc = (options: { type: 'minor' }) => void;

/** Young generations at or below this are left alone (V8 starts at 1 MiB per semi-space). */
const SMALL_BYTES = 4 * 1024 * 1024;

/** V8's `gc()`: the global one when node runs with --expose-gc, else one from a fresh context (also parts-body.ts). */
export function exposedGc(): Gc {
  const global = (globalThis as { gc?: Gc }).gc;
  if (global) return global;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as Gc;
}

/**
 * Gives the young generation back to the system while the server is quiet. Start-up and any
 * burst grow it to its maximum (`--max-semi-space-size=32`: 64 MiB, docs/decisions), and V8
 * shrinks it only at a scavenge that finds the allocation rate low, which a quiet server does
 * not reach for minutes. So every `everyMs` a grown young generation gets a scavenge: under load
 * it is one more among hundreds (V8 keeps the size, the rate being high); when quiet, V8 shrinks
 * it to 1 MiB. Measured in bench/server-memory.mjs. Returns the stop function.
 */
export function trimYoungGenerationWhenQuiet(everyMs = 10_000): () => void {
  let gc: Gc | undefined;
  const timer = setInterval(() => {
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    if (!young || young.space_size <= SMALL_BYTES) return;
    gc ??= exposedGc();
    gc({ type: 'minor' });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
