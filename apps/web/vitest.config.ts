import { defineConfig } from 'vitest/config';

const root = new URL('.', import.meta.url).pathname;

// Unit tests cover DOM-free logic only, so the node environment is enough.
export default defineConfig({
  root,
  resolve: {
    alias: { '@': `${root}src` },
  },
  test: {
    name: 'web-unit',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
