// Bundles the simulator's command line into dist/cli.js and the demo's setup step into dist/demo-setup.js. Workspace sources (@fleet/shared,
// TypeScript) are bundled in; every npm dependency stays external and is loaded from node_modules.
import { build } from 'esbuild';
import fs from 'node:fs';

const pkg = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@fleet/'));

await build({
  entryPoints: ['src/cli.ts', 'src/demo-setup.ts', 'src/beacon-cli.ts', 'src/demo-rollouts.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
});
console.log(
  'simulator built: apps/simulator/dist/cli.js, dist/demo-setup.js, dist/beacon-cli.js, dist/demo-rollouts.js',
);
