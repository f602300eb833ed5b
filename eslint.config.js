import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const root = import.meta.dirname;

// The web app's files whose words are all in the catalogues (the literal-string rule below), under web/src: all of them.
const I18N_FILES = ['**/*.tsx'];

// web/src's layers (bulletproof-react's): app/ composes features/, features use the shared
// folders, and nothing imports upwards. A feature is a folder of features/; every other
// folder of web/src but app/ and testing/ is shared (api, components, lib, stores...).
const foldersOf = (dir) => readdirSync(`${root}/${dir}`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const webFeatures = foldersOf('web/src/features');
const webShared = foldersOf('web/src').filter((name) => !['app', 'features', 'testing'].includes(name)).map((name) => `web/src/${name}`);
const webZones = [
  // Features do not import each other: what two need is shared, a screen showing two is composed in app/screens/.
  ...webFeatures.map((name) => ({
    target: `web/src/features/${name}`,
    from: 'web/src/features',
    except: [`./${name}`],
    message: 'A feature does not import another feature: move what both need to a shared folder (api, components, lib, stores), or compose the screen in app/screens/.',
  })),
  { target: 'web/src/features', from: 'web/src/app', message: 'Features do not import app/ (app -> features -> shared).' },
  { target: webShared, from: ['web/src/features', 'web/src/app'], message: 'Shared code does not import features or app/ (app -> features -> shared).' },
  // The test harness renders the whole app (its providers and routes) for every feature's tests.
  { target: 'web/src/testing', from: 'web/src/features', message: 'testing/ serves every feature and imports none.' },
];

// core/src's layers (docs/architecture.md, "The layers"): dependencies point down only.
// Each zone says what one folder may not import; its tests keep the same rule.
const coreZones = [
  // core is beneath api and worker: nothing in it (its tests included) imports them.
  { target: './core/src', from: ['./api', './worker', './web'], message: 'core imports nothing from api, worker or web (its tests use scripts/testing/core-kit.ts).' },
  // infra/ is the process's infrastructure (config, database client, Redis, queues,
  // logger, errors, secrets, mail): it knows neither the chain nor the shop.
  {
    target: './core/src/infra',
    from: './core/src',
    except: ['./infra', './contract', './generated'],
    message: 'core/src/infra is infrastructure: it imports nothing but infra/, contract/ and the Prisma client (docs/architecture.md).',
  },
  // The books (ledger, balances, cashout holds and returns) are beneath the money that
  // moves through them: payments, the deposit sweeper, payouts and the reconciler use the
  // books, never the other way round (what both sides need sits in books/, as
  // payout-hold.ts does).
  {
    target: './core/src/books',
    from: ['./core/src/payments', './core/src/deposit-sweeper', './core/src/payouts', './core/src/reconcile'],
    message: 'core/src/books is beneath payments, the deposit sweeper, payouts and the reconciler: it imports none of them (docs/architecture.md).',
  },
  // Money in: payments use the deposit addresses (deposits/) and the books; the deposit
  // sweeper, payouts and the reconciler use payments, never the other way round.
  {
    target: './core/src/payments',
    from: ['./core/src/deposit-sweeper', './core/src/payouts', './core/src/reconcile'],
    message: 'core/src/payments is beneath the deposit sweeper, payouts and the reconciler: it imports none of them (docs/architecture.md).',
  },
  // An order's deposit address (the factory and forwarder contracts, the addresses, whether
  // the factory is ours) is beneath payments and the deposit sweeper: like the chain layer, it
  // knows no order's state and no payment.
  {
    target: './core/src/deposits',
    from: './core/src',
    except: ['./deposits', './chain', './infra', './contract', './generated'],
    message: 'core/src/deposits is the deposit contracts and addresses: it imports no domain module (payments and the deposit sweeper use it; docs/architecture.md).',
  },
  // The chain layer knows nothing of the shop: it may use the process's infrastructure
  // (infra/) and itself, never a domain module (payments, payouts, books...).
  {
    target: './core/src/chain',
    from: './core/src',
    except: ['./chain', './infra', './generated'],
    message: 'core/src/chain is the chain layer: it imports no domain module (docs/architecture.md).',
  },
  // A rail (one asset on one chain) reads the chain for the shop: it may use the chain
  // layer, infrastructure and the browser-safe contract, never a domain module (payments,
  // deposits, payouts, books...), which ask the rails instead (docs/architecture.md, "Rails").
  {
    target: './core/src/rails',
    from: './core/src',
    except: ['./rails', './chain', './infra', './contract', './generated'],
    message: 'core/src/rails reads the chain for the shop: it imports the chain layer and infrastructure, no domain module (docs/architecture.md).',
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'core/src/generated/**', 'web/dist/**', '.data/**', '.cache/**', 'uploads/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/generated/prisma/*'], message: 'Import the Prisma client from @shop/core (core/src/infra/db.ts).' }] }],
    },
  },
  {
    // No import cycles anywhere (core, api, worker, web, scripts, e2e, bench): a cycle means
    // two modules are one concern split in two, or one holds something both need. Imports
    // resolve as tsc resolves them: the root project, and web's own for its `@/` alias.
    // Type-only imports are erased at build time and do not count.
    files: ['**/*.{ts,tsx,mts,cts}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
      'import-x/resolver-next': [
        // Each file is resolved with the project that includes it; two projects are expected here.
        createTypeScriptImportResolver({ project: [`${root}/tsconfig.json`, `${root}/web/tsconfig.json`], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      'import-x/no-cycle': 'error',
    },
  },
  {
    // core's layers (coreZones above), in one block: a later block naming the same rule
    // would replace these zones for its files, not add to them.
    files: ['core/src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: coreZones }],
    },
  },
  {
    files: ['core/src/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The money core stays in files that each do one job (docs/architecture.md): ~300 lines a file, ~80 a function.
    files: ['core/src/**/*.ts'],
    ignores: ['core/src/**/*.test.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: webZones }],
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
    // Every word the web app shows comes from its catalogues (web/src/i18n/catalogs, in
    // en, az and ru): a text written in a screen's markup, or in a prop a person reads,
    // fails the lint (issue 41). Tests and the test harness may write what they look for.
    files: I18N_FILES.map((glob) => `web/src/${glob}`),
    ignores: ['web/src/**/*.test.tsx', 'web/src/testing/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': { include: ['title', 'description', 'label', 'placeholder', 'alt', 'aria-label', 'aria-description', 'heading', 'message', 'emptyText', 'confirmLabel', 'children'] },
          message: 'A text a person reads belongs in the catalogues (web/src/i18n/catalogs): write t(\'key\') instead.',
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
