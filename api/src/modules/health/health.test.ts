import request from 'supertest';
import { createPublicClient, custom, type PublicClient } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingDb } from '../../../../scripts/testing/query-plans.ts';
import { createApp } from '../../app.ts';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

/**
 * GET /api/health for anyone: ok or degraded per dependency, from one round of checks per
 * HEALTH_CACHE_MS at most, so a flood of anonymous requests costs the node, the database
 * and Redis nothing more; operators (admins, the metrics token) get the details, fresh.
 */
let kit: ApiTestKit;
let admin: TestUser;
beforeAll(async () => {
  // A cache period (the longest allowed, a minute) longer than each test: every round of checks counted is one the cache let through.
  kit = await createApiTestKit({ chain: true, env: { HEALTH_CACHE_MS: '60000', METRICS_TOKEN: 'scrape-token-0123456789' } });
  admin = await kit.createUser({ isAdmin: true });
});
afterAll(async () => {
  await kit?.close();
});

/** The kit's app over a node and a database client that count what the health checks ask them. */
function countingApp() {
  const node = kit.env.runtime.chain;
  const calls = { chainId: 0 };
  const chain = createPublicClient({
    chain: mainnet,
    transport: custom({
      request({ method, params }) {
        if (method === 'eth_chainId') calls.chainId++;
        return node.request({ method, params } as never);
      },
    }),
  }) as PublicClient;
  const recording = recordingDb(kit.env.config.databaseUrl);
  const app = createApp({ ...kit.env.runtime, chain, db: recording.db });
  // One round of checks asks the node for its chain id once and pings the database once.
  const rounds = () => ({ node: calls.chainId, database: recording.queries.filter((q) => /^\s*SELECT 1\s*$/i.test(q.sql)).length });
  return { app, rounds, close: recording.close };
}

describe('GET /api/health', () => {
  it('answers a flood of anonymous requests from one round of checks, with no details', async () => {
    const { app, rounds, close } = countingApp();
    try {
      const together = await Promise.all(Array.from({ length: 40 }, () => request(app).get('/api/health')));
      const oneByOne = [];
      for (let i = 0; i < 20; i++) oneByOne.push(await request(app).get('/api/health'));
      for (const res of [...together, ...oneByOne]) {
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok', chain: 'ok', queues: 'ok' } });
      }
      expect(rounds()).toEqual({ node: 1, database: 1 });
    } finally {
      await close();
    }
  });

  it('gives operators the details from a round of their own', async () => {
    const { app, rounds, close } = countingApp();
    try {
      await request(app).get('/api/health');
      expect(rounds()).toEqual({ node: 1, database: 1 });
      const cookie = await kit.cookieFor(admin);
      const asAdmin = await request(app).get('/api/health').set('Cookie', cookie);
      expect(asAdmin.body.details.chain).toMatchObject({ chainId: 1 });
      const scraper = await request(app).get('/api/health').set('Authorization', 'Bearer scrape-token-0123456789');
      expect(scraper.body.details.database).toEqual({});
      expect(rounds()).toEqual({ node: 3, database: 3 });
      // Still nothing more for anyone else.
      expect((await request(app).get('/api/health')).body.details).toBeUndefined();
      expect(rounds()).toEqual({ node: 3, database: 3 });
    } finally {
      await close();
    }
  });
});
