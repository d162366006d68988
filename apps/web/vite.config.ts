import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import { firstLoadChunkGroups } from './chunk-groups.ts';

// Pin the root to this folder so the build works from any working directory.
const root = new URL('.', import.meta.url).pathname;

export default defineConfig(({ mode }) => {
  // FLEET_API_URL points the dev/preview proxy at another server (default: the local one).
  const apiServer = loadEnv(mode, root, '').FLEET_API_URL || 'http://127.0.0.1:8080';
  const proxy = {
    '/api': { target: apiServer },
    '/healthz': { target: apiServer },
    '/kiosk-manager': { target: apiServer },
    // The beacon screen's Socket.IO connection (websocket upgrades need `ws`).
    '/socket.io': { target: apiServer, ws: true },
  };
  return {
    root,
    plugins: [react()],
    resolve: {
      alias: { '@': `${root}src` },
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // The manifest tells which chunks a route loads (used for the login-page size budget).
      manifest: true,
      // Maps without a sourceMappingURL comment: for size analysis and error triage, not shipped to browsers.
      sourcemap: 'hidden',
      // Browsers with light-dark(): below these the minifier rewrites light-dark() inside custom
      // properties (tones.module.css) into --lightningcss-* variables that nothing defines, and the
      // status colours vanish.
      cssTarget: ['chrome123', 'edge123', 'firefox120', 'safari17.5'],
      // index.html serves every console path; login.html is /auth/login, prerendered (scripts/prerender.mjs).
      rolldownOptions: {
        input: { index: `${root}index.html`, login: `${root}login.html` },
        // A cold first load in a few scripts, not ~96; lazy screens keep their own (chunk-groups.ts).
        output: { codeSplitting: { groups: firstLoadChunkGroups(root) } },
      },
    },
    server: { proxy },
    preview: { proxy },
  };
});
