import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import pg from 'pg';
import { openSession } from '../../middleware/auth.ts';
import { createTestEnv, type TestEnv } from '../../../../scripts/testing/test-env.ts';
import { seedHistory } from '../../../../scripts/testing/history.ts';
import { appReads } from '../../testing/app-reads.ts';
import { scansOf } from '../../../../scripts/testing/query-plans.ts';

/**
 * The shopper's order history on the profile (GET /api/orders/mine?status=...): one state
 * at a time, newest first, a page at a time. A buyer with 20,000 orders over two years
 * (four in five paid) and a few cancelled ones long ago: the cancelled page is read through
 * Order(userId, status, createdAt, id), never by walking the buyer's paid history.
 */
const HISTORY = 20_000;
const BOUND = 200;
const BUYER = '00000000-0000-4000-8000-00000000a11c';

let env: TestEnv;
let url: string;
let cookie: string;

beforeAll(async () => {
  env = await createTestEnv();
  url = env.config.databaseUrl;
  await seedHistory(url, HISTORY);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // 60 of the buyer's oldest expired orders were cancelled by them instead.
    await client.query(`
      UPDATE "Order" SET "status" = 'CANCELLED' WHERE "id" IN (
        SELECT "id" FROM "Order" WHERE "userId" = $1::uuid AND "status" = 'EXPIRED' ORDER BY "createdAt" LIMIT 60)`, [BUYER]);
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
  cookie = (await openSession(env.runtime, BUYER)).cookie;
});
afterAll(async () => {
  await env?.close();
});

const recorded = <T>(run: Parameters<typeof appReads<T>>[1]) => appReads({ url, runtime: env.runtime, tables: ['Order'], bound: BOUND, noSeqScan: true }, run);

describe("what the shopper's order history reads", () => {
  it('pages the cancelled orders of a buyer with 20,000 orders through the (userId, status, createdAt, id) index', async () => {
    const first = await recorded((app) => request(app).get('/api/orders/mine?status=CANCELLED&limit=50').set('Cookie', cookie));
    expect(first.result.status).toBe(200);
    const page = first.result.body as { _id: string; status: string; createdAt: string }[];
    expect(page).toHaveLength(50);
    expect(new Set(page.map((o) => o.status))).toEqual(new Set(['CANCELLED']));
    expect(first.tooMuch).toEqual([]);
    const next = /^<([^>]+)>; rel="next"$/.exec(String(first.result.headers.link))?.[1];
    expect(next).toBeTruthy();
    const second = await recorded((app) => request(app).get(next!).set('Cookie', cookie));
    expect((second.result.body as unknown[]).length).toBe(10);
    expect(second.tooMuch).toEqual([]);

    // The plan names the index: the buyer's cancelled orders, newest first, with no sort.
    const sql = `SELECT "id" FROM "Order" WHERE "userId" = $1::uuid AND "status" = 'CANCELLED' ORDER BY "createdAt" DESC, "id" DESC LIMIT 51`;
    const scans = await scansOf(url, { sql, params: [BUYER] });
    expect(scans.map((s) => s.index)).toEqual(['Order_userId_status_createdAt_id_idx']);
    expect(scans[0]!.rows).toBeLessThanOrEqual(51);
  });

  it('pages every state at once (no filter) through the (userId, createdAt, id) index', async () => {
    const { result, tooMuch } = await recorded((app) => request(app).get('/api/orders/mine?limit=50').set('Cookie', cookie));
    expect((result.body as unknown[]).length).toBe(50);
    expect(tooMuch).toEqual([]);
  });
});
