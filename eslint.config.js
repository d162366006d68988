import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const webFeatures = readdirSync(new URL('apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.tmp/**', 'apps/server/drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/*/test/**/*.ts', 'e2e/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // Import boundaries (ARCHITECTURE.md; docs/decisions/2026-11-25-import-boundaries.md): no
  // cycles; domain rules never reach for transports or routes; routes call domain operations
  // and never the database; a web feature never imports another.
  {
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'packages/shared/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({ alias: { '@': [new URL('apps/web/src', import.meta.url).pathname] } }),
      ],
    },
    rules: {
      // External packages cannot import us back; not parsing them keeps the rule to seconds.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...['routes', 'plugins', 'mqtt', 'realtime'].map((layer) => ({
              target: './apps/server/src/domain',
              from: `./apps/server/src/${layer}`,
              message: `domain/ holds the rules; it does not import ${layer}/ (pass what it needs in).`,
            })),
            ...['dfu', 'allocation'].map((feature) => ({
              target: './apps/server/src/domain/command',
              from: `./apps/server/src/domain/${feature}`,
              message: `command/ knows no feature: ${feature}/ registers a settle handler where the commands are built.`,
            })),
            {
              target: './apps/server/src/routes',
              from: './apps/server/src/db',
              message: 'A route calls a domain operation; queries and writes live in domain/.',
            },
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
              message: 'A feature does not import another; share through components/ or lib/, or compose in routes/.',
            })),
          ],
        },
      ],
    },
  },
);
