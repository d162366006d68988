// Where a .cpuprofile's time went: self time by package or source area, and the heaviest
// functions. For the profiles `--cpu-prof` writes (bench/mqtt.mjs and the others).
// Usage: node bench/cpuprofile-summary.mjs <file.cpuprofile> [--top=25] [--window=<other.cpuprofile>]
//   --window: only the samples within the other profile's span (a thread's whole-run profile from
//   `node --cpu-prof`, cut to the window bench/mqtt.mjs profiled on the main thread: one clock a process).
import fs from 'node:fs';
import { arg, fmt } from './lib.mjs';

const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!file) throw new Error('usage: node bench/cpuprofile-summary.mjs <file.cpuprofile> [--top=25]');
const TOP = arg('top', 25);
const windowFile = process.argv.find((a) => a.startsWith('--window='))?.slice('--window='.length);
const span = windowFile ? JSON.parse(fs.readFileSync(windowFile, 'utf8')) : null;

/** The area a frame belongs to: a package under node_modules, a folder of ours, or V8/Node itself. */
function area({ url, functionName }) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const ours = url.match(/\/(apps\/[^/]+\/src\/[^/]+|packages\/[^/]+|bench)\//);
  if (ours) return ours[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  return url;
}

const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
// Self time a node: the sampling interval times the samples that landed in it.
const self = new Map();
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  if (span && (t < span.startTime || t > span.endTime)) continue;
  const dt = profile.timeDeltas[i + 1] ?? 0;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byArea = new Map();
const byFunction = new Map();
for (const [id, us] of self) {
  const { callFrame } = byId.get(id);
  const a = area(callFrame);
  byArea.set(a, (byArea.get(a) ?? 0) + us);
  // The file (ours are transpiled by tsx, one line each: the name says more than the line).
  const where = callFrame.url ? `${callFrame.url.split('/').at(-1)}:${callFrame.lineNumber + 1}` : a;
  const key = `${callFrame.functionName || '(anonymous)'}  ${where}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
}
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`${fmt((us / total) * 100, '%').padStart(8)}  ${fmt(us / 1000, 'ms', 0).padStart(10)}  ${k}`);
};
console.log(`${file}: ${fmt(total / 1000, 'ms', 0)} sampled`);
print('self time by area', byArea);
print('self time by function', byFunction);
