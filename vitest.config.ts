import { defineConfig } from 'vitest/config';

// Server-side tests (core, api, worker, scripts) run against real Postgres, Redis and
// anvil; the web project runs in jsdom. `npm test` runs both (scripts/test.ts).
// The time limits are for a busy machine (the whole suite on two cores): a test ends when
// the state it waits for holds, so a generous limit costs only a test that is stuck.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['core/src/**/*.test.ts', 'api/src/**/*.test.ts', 'worker/src/**/*.test.ts', 'scripts/**/*.test.ts', 'prisma/**/*.test.ts', 'web/*.test.ts'],
          globalSetup: ['scripts/testing/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          pool: 'forks',
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
          // expect.poll waits for its state up to this, not vitest's quiet-machine second.
          expect: { poll: { timeout: 30_000 } },
        },
      },
      'web/vitest.config.ts',
      {
        // Browser journeys: the whole shop in headless Chromium (e2e/shop.ts). They need
        // the built web app (scripts/test.ts builds it first) and /usr/bin/chromium.
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.test.ts'],
          globalSetup: ['scripts/testing/global-setup.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 3 },
          // expect.poll waits for what the page shows up to this, not vitest's quiet-machine
          // second (a hydrated page's re-render on a busy CI machine took longer).
          expect: { poll: { timeout: 30_000 } },
        },
      },
    ],
  },
});
