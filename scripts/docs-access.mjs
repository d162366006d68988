// npm run docs:access: writes docs/access.md from the shared access rule
// (packages/shared/src/access); apps/server/src/access-docs.test.ts fails when the file is out of date.
import fs from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { root } from './lib.mjs';

const { renderAccessTable } = await tsImport('../packages/shared/src/access/access-table.ts', import.meta.url);
const target = path.join(root, 'docs/access.md');
fs.writeFileSync(target, renderAccessTable());
console.log(`wrote ${path.relative(root, target)}`);
