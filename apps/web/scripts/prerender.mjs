// Rewrites dist/login.html and writes dist/login-dark.html: the built login.html with the sign-in page
// rendered into #root (src/prerender.tsx, built for Node here), so /auth/login paints from the
// HTML alone. The dark copy is served to browsers whose remembered Dark Mode choice is dark
// (the fleet-theme cookie), so they never see a light page first. Run after `vite build`.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

const web = path.resolve(import.meta.dirname, '..');
const outDir = path.join(web, 'node_modules/.prerender');

await build({
  root: web,
  configFile: path.join(web, 'vite.config.ts'),
  logLevel: 'warn',
  build: { ssr: 'src/prerender.tsx', outDir, emptyOutDir: true, manifest: false, sourcemap: false },
});
const { renderLoginPage } = await import(pathToFileURL(path.join(outDir, 'prerender.js')).href);
const markup = renderLoginPage();

const template = fs.readFileSync(path.join(web, 'dist/login.html'), 'utf8');
if (!template.includes('<div id="root"></div>')) throw new Error('dist/login.html has no empty #root');
// Every stylesheet the console's entry brings (the sign-in layout's own among them) goes in the
// head too, so nothing restyles or moves when the console takes the page over.
const manifest = JSON.parse(fs.readFileSync(path.join(web, 'dist/.vite/manifest.json'), 'utf8'));
const css = new Set();
const collect = (key) => {
  const chunk = manifest[key];
  for (const file of chunk.css ?? []) css.add(`/${file}`);
  for (const imported of chunk.imports ?? []) collect(imported);
};
// login.html's entry imports the console (main.tsx) dynamically, after the first paint.
for (const key of manifest['login.html'].dynamicImports ?? []) collect(key);
const links = [...css]
  .filter((href) => !template.includes(`href="${href}"`))
  .map((href) => `<link rel="stylesheet" crossorigin href="${href}">`)
  .join('');
const page = (scheme) =>
  template
    .replace('</head>', `${links}</head>`)
    .replace('<html lang="en">', `<html lang="en" data-mantine-color-scheme="${scheme}">`)
    .replace('<title>Fleet Console</title>', '<title>Sign in · Fleet Console</title>')
    .replace('<div id="root"></div>', `<div id="root" data-prerendered="login">${markup}</div>`);
fs.writeFileSync(path.join(web, 'dist/login.html'), page('light'));
fs.writeFileSync(path.join(web, 'dist/login-dark.html'), page('dark'));
fs.rmSync(outDir, { recursive: true, force: true });
console.log(`prerendered /auth/login: ${(markup.length / 1e3).toFixed(1)} kB of markup`);
