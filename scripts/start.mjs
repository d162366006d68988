// npm start: build what is missing or stale, then run the server, which serves the console.
// `npm run start:kiosk-manager` runs the kiosk manager on its own instead (argument kiosk-manager).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVER_NODE_FLAGS, SERVER_PROCESS_ENV, buildIfStale, root } from './lib.mjs';

await buildIfStale();
const child = spawn(
  process.execPath,
  [
    ...SERVER_NODE_FLAGS,
    path.join(root, 'apps/server/dist', process.argv[2] === 'kiosk-manager' ? 'kiosk-manager.js' : 'main.js'),
  ],
  {
    stdio: 'inherit',
    env: { ...process.env, ...SERVER_PROCESS_ENV },
  },
);
// The server exits within 10 s of the signal on its own (8 s for in-flight work); should it not,
// it is killed, so `npm start` always ends.
const KILL_AFTER_MS = 9_500;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    child.kill(signal);
    setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS).unref();
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGKILL' ? 1 : signal ? 0 : 1)));
