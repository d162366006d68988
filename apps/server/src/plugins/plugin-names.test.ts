import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// fastify-plugin names an anonymous plugin by throwing an error and reading its stack. With
// --enable-source-maps (npm start) that one read parses the bundle's whole source map, about
// 10 MB of arrays the server then keeps for its lifetime (bench/notes/server-memory.md). So every
// plugin of the server is a named function or passes its name.
const src = path.resolve(import.meta.dirname, '..');

function pluginFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return pluginFiles(file);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return [];
    return fs.readFileSync(file, 'utf8').includes("from 'fastify-plugin'") ? [file] : [];
  });
}

describe('the server’s Fastify plugins', () => {
  const files = pluginFiles(src);

  it('are found', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it.each(files.map((file) => [path.relative(src, file), file]))(
    '%s names its plugins without a stack trace',
    async (_name, file) => {
      const exports = (await import(file)) as Record<string, unknown>;
      const plugins = Object.values(exports).filter(
        (value): value is ((...args: unknown[]) => unknown) & Record<symbol, { name?: string } | undefined> =>
          typeof value === 'function' && Symbol.for('plugin-meta') in value,
      );
      expect(plugins.length).toBeGreaterThan(0);
      for (const plugin of plugins) {
        const named = plugin.name !== '' || !plugin[Symbol.for('plugin-meta')]?.name?.includes('-auto-');
        expect(named, `${plugin[Symbol.for('fastify.display-name')] as unknown as string}`).toBe(true);
      }
    },
  );
});
