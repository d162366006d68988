import { defineConfig } from 'vitest/config';

const root = new URL('.', import.meta.url).pathname;

// Logic tests (*.test.ts) run in node; component tests (*.test.tsx) render and click on happy-dom,
// chosen per file with `// @vitest-environment happy-dom` (helpers in src/test/render.tsx).
export default defineConfig({
  root,
  resolve: {
    alias: { '@': `${root}src` },
  },
  test: {
    name: 'web-unit',
    environment: 'node',
    include: ['src/**/*.test.{ts,tsx}'],
    // A component test takes about a second alone; the default 5 s is too tight when the
    // machine is shared (seen at a load of 16 on 2 cores).
    testTimeout: 15_000,
  },
});
