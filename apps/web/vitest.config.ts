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
    // Files run without isolation: a worker imports React, Mantine and Testing Library once, not
    // once a file (that import was most of this project's time). What each file needs afresh (the
    // happy-dom stubs, cleanup after each test, its own copy of the console's modules so that its
    // vi.mock takes) is done by the setup file, which vitest runs before every file.
    setupFiles: ['src/test/setup-dom.ts'],
    isolate: false,
  },
});
