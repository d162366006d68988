import { existsSync } from 'node:fs';
import path from 'node:path';

/** The apps/server folder, found from this module whether it runs from src/ or from the bundle in dist/. */
export function serverRoot(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'drizzle', 'meta', '_journal.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('apps/server root not found');
  }
}

/** Where the built console lives unless WEB_DIST says otherwise. */
export function defaultWebDist(): string {
  return path.resolve(serverRoot(), '../web/dist');
}
