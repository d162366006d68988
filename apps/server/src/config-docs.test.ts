import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvSchema, loadConfig } from './config.ts';

const readme = readFileSync(path.resolve(import.meta.dirname, '../../../README.md'), 'utf8');

/** The README's configuration table: each row's variables (a row may name several) and its default cell. */
function documentedRows(markdown: string) {
  const section = /^## Configuration\n([\s\S]*?)(?=^## )/m.exec(markdown)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map(([, names = '', fallback = '']) => ({
      names: [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] as string),
      fallback,
    }))
    .filter((row) => row.names.length > 0);
}

const rows = documentedRows(readme);
const documented = rows.flatMap((row) => row.names);
const schemaKeys = Object.keys(EnvSchema.shape);

describe('the README configuration table', () => {
  it('names every key of the environment schema', () => {
    expect(schemaKeys.filter((key) => !documented.includes(key))).toEqual([]);
  });

  it('names no key the schema lacks, and each key once', () => {
    expect(documented.filter((key) => !schemaKeys.includes(key))).toEqual([]);
    expect(documented.filter((key, i) => documented.indexOf(key) !== i)).toEqual([]);
  });

  it('gives the default the schema applies', () => {
    const defaults: Record<string, unknown> = loadConfig({});
    const wrong = rows.flatMap(({ names, fallback }) =>
      names.flatMap((name) => {
        const value = defaults[name];
        if (typeof value === 'object' && value !== null && 'rate' in value && 'burst' in value) {
          return fallback === `\`${value.rate},${value.burst}\`` ? [] : [`${name}: ${fallback}`];
        }
        if (value === undefined) return [];
        return fallback === `\`${String(value)}\`` ? [] : [`${name}: ${fallback} (schema: ${String(value)})`];
      }),
    );
    expect(wrong).toEqual([]);
  });
});
