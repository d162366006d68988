import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderAccessTable } from '@fleet/shared/access/access-table';

const file = path.resolve(import.meta.dirname, '../../../docs/access.md');

describe('docs/access.md', () => {
  it('is the table the shared rule renders (run `npm run docs:access` after changing the rule)', () => {
    expect(readFileSync(file, 'utf8')).toBe(renderAccessTable());
  });
});
