import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import pg from 'pg';
import { inject } from 'vitest';
import { createApiTestKit, type ApiTestKit } from '../../../api/src/testing/api-test-kit.ts';
import { waitFor } from '../../../scripts/testing/chain.ts';
import { reportDrill } from '../../../scripts/testing/drill-report.ts';
import { createProduct } from '@shop/core';

describe('drill: Postgres connections cut', () => {
  let kit: ApiTestKit;
  let admin: pg.Client;
  let dbName: string;

  beforeAll(async () => {
    // Without the catalogue cache, so every request below needs the database.
    kit = await createApiTestKit({ env: { CATALOGUE_CACHE_MS: '0' } });
    await createProduct(kit.db, { name: 'P', image: '/images/gold.svg', description: '', price: '1.00', countInStock: 1 });
    dbName = new URL(kit.env.config.databaseUrl).pathname.slice(1);
    admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`).catch(() => {});
    await admin?.end();
    await kit?.close();
  });

  const cut = () => admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [dbName]);

  it('requests fail with 503 and a message while the database is unreachable, then recover without a restart', async () => {
    expect((await request(kit.app).get('/api/products')).status).toBe(200);
    // Every open connection is killed and no new one is accepted.
    await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
    await cut();
    const statuses = new Set<number>();
    for (let i = 0; i < 5; i++) {
      const res = await request(kit.app).get('/api/products');
      statuses.add(res.status);
      expect(res.body.message).toBe('Service temporarily unavailable, please try again');
    }
    expect([...statuses]).toEqual([503]);
    const health = await request(kit.app).get('/api/health');
    expect(health.status).toBe(503);
    expect(health.body.checks.database).toBe('degraded');

    await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
    const allowed = Date.now();
    await waitFor('the api to serve again', async () => (await request(kit.app).get('/api/products')).status === 200);
    const recovered = Date.now() - allowed;
    expect((await request(kit.app).get('/api/health')).body.checks.database).toBe('ok');
    reportDrill(`5 of 5 requests while the database refused connections: 503 'Service temporarily unavailable, please try again'; health 503 naming the database; serving again ${recovered} ms after connections were allowed, same process`);
  });

  it('connections killed mid-flight are replaced: at most the requests in flight fail, with 503', async () => {
    await cut();
    const results = await Promise.all(Array.from({ length: 20 }, () => request(kit.app).get('/api/products')));
    for (const r of results) expect([200, 503]).toContain(r.status);
    reportDrill(`20 requests right after every connection was killed: ${results.filter((r) => r.status === 200).length} answered 200, ${results.filter((r) => r.status === 503).length} answered 503, none 500`);
    await waitFor('the pool to heal', async () => (await request(kit.app).get('/api/products')).status === 200);
  });
});
