import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { i18nCatalogs } from './i18n-catalogs.ts';
import { lucideIconImports } from './lucide-icons.ts';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [i18nCatalogs(), lucideIconImports(), react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup-tests.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    sequence: { groupOrder: 2 },
    // Limits for a busy two-core machine (CI shares it): a test ends when what it waits for
    // holds, so a generous limit costs only a test that is stuck.
    testTimeout: 60_000,
  },
});
