import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'core/src/generated/**', 'web/dist/**', '.data/**', '.cache/**', 'uploads/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/generated/prisma/*'], message: 'Import the Prisma client from @shop/core (core/src/db.ts).' }] }],
    },
  },
  {
    files: ['core/src/db.ts', 'core/src/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            // A regex, because gitignore-style groups cannot re-include a path below an
            // excluded parent ('!@shop/core/contract' after '@shop/core' never matched).
            { regex: '^@shop/core(?!/contract$)(/.*)?$', message: 'The browser may import only @shop/core/contract.' },
            { group: ['node:*'], message: 'No Node modules in the browser bundle.' },
          ],
        },
      ],
    },
  },
  {
    files: ['core/src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['../*', 'node:*', '@prisma/*', 'ioredis', 'bullmq', 'pino'], message: 'contract/ is browser-safe: no server imports.' }] }],
    },
  },
);
