/**
 * Why a screen failed to render: `offline` (its code could not be fetched while the browser is
 * offline; it opens when the connection returns), `stale` (a new release replaced the old chunks;
 * reloading fixes it) or `crash` (anything else).
 */
export type ScreenFailure = 'offline' | 'stale' | 'crash';

// Chromium, Firefox and Safari word a failed `import()` differently.
const CHUNK_LOAD = /dynamically imported module|Importing a module script failed|error loading dynamically/i;

/** Classifies a caught render error; `online` is the browser's connection when it was caught. */
export function screenFailure(error: unknown, online: boolean): ScreenFailure {
  if (!(error instanceof Error) || !CHUNK_LOAD.test(error.message)) return 'crash';
  return online ? 'stale' : 'offline';
}
