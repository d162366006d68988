// npm run dev: the server with reload (tsx watch) and the Vite dev server with its proxy to it.
import { spawn } from 'node:child_process';
import { root } from './lib.mjs';

const children = [
  spawn('npm', ['run', 'dev', '-w', 'apps/server'], { cwd: root, stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
