import path from 'node:path';
import { serverBuildIsStale } from '../../../../scripts/lib.mjs';

/**
 * How to start the server as its own process, as `npm start` runs it: the build (`dist/main.js`)
 * when it is newer than every source it is built from, which `npm test` and CI see to before the
 * run; otherwise the sources through tsx, so a test never runs a stale build. The build reaches
 * /readyz on about a third less CPU than tsx compiling the sources (6.3 s against 9.0 s,
 * suite-speed-2026-11-28.md).
 */
export function serverEntry(): string[] {
  return serverBuildIsStale() ? ['--import', 'tsx', 'src/main.ts'] : [path.join('dist', 'main.js')];
}
