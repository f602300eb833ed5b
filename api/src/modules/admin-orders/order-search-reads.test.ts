import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import pg from 'pg';
import { addDays, orderReference } from '@shop/core/contract';
import { openSession } from '../../middleware/auth.ts';
import { createTestEnv, type TestEnv } from '../../../../scripts/testing/test-env.ts';
import { seedHistory } from '../../../../scripts/testing/history.ts';
import { appReads } from '../../testing/app-reads.ts';

/**
 * What the admin's order searches read on a shop with a long past: 20,000 orders of one
 * buyer over two years (four in five paid, the rest expired or late) among 20,000 buyers.
 * A month of the Order List, a reference typed without ORD-, and the open orders offered
 * for assigning a transfer (the buyer's last year all paid) read a page of rows through
 * indexes, never the buyer's whole history (2M orders in the two-year shop: bench/two-year/explain.ts plans the same reads).
 */
const HISTORY = 20_000;
const BOUND = 200;
const TABLES = ['Order', 'User'];

let env: TestEnv;
let url: string;
let adminCookie: string;
let transferId: string;
let someOrder: string;
const to = addDays(new Date().toISOString().slice(0, 10), -300);
const from = addDays(to, -29);

beforeAll(async () => {
  env = await createTestEnv();
  url = env.config.databaseUrl;
  await seedHistory(url, HISTORY);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      INSERT INTO "User" ("id", "name", "email", "passwordHash", "referralCode", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), 'Buyer ' || g, 'search-' || g || '@example.com', 'x', 'search-' || g, now(), now() FROM generate_series(1, ${HISTORY}) g`);
    const admin = await client.query<{ id: string }>(`
      INSERT INTO "User" ("id", "name", "email", "passwordHash", "referralCode", "isAdmin", "updatedAt")
      VALUES (gen_random_uuid(), 'Admin', 'admin-search@example.com', 'x', 'admin-search', true, now()) RETURNING "id"`);
    adminCookie = (await openSession(env.runtime, admin.rows[0]!.id)).cookie;
    // The history buyer's last year is all paid: their open orders (expired, late) are older.
    await client.query(`UPDATE "Order" SET "status" = 'PAID' WHERE "status" IN ('EXPIRED', 'LATE') AND "createdAt" > now() - interval '365 days'`);
    // A transfer no order took, seen now.
    const transfer = await client.query<{ id: string }>(`
      INSERT INTO "Payment" ("id", "txHash", "source", "status", "amount", "blockNumber", "createdAt", "updatedAt")
      VALUES (gen_random_uuid(), '0x' || repeat('7', 64), 'INDEXED', 'UNRESOLVED', 1000, 99999999, now(), now()) RETURNING "id"`);
    transferId = transfer.rows[0]!.id;
    someOrder = (await client.query<{ id: string }>(`SELECT "id" FROM "Order" ORDER BY "createdAt" LIMIT 1 OFFSET 5000`)).rows[0]!.id;
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
});
afterAll(async () => {
  await env?.close();
});

const recorded = <T>(run: Parameters<typeof appReads<T>>[1]) => appReads({ url, runtime: env.runtime, tables: TABLES, bound: BOUND, noSeqScan: true }, run);
const get = (app: Parameters<Parameters<typeof appReads>[1]>[0], path: string) => request(app).get(path).set('Cookie', adminCookie);

describe("what the admin's order searches read on a shop's two years", () => {
  it("reads a page of a month's orders from the date index", async () => {
    const { result, tooMuch } = await recorded((app) => get(app, `/api/orders?from=${from}&to=${to}`));
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(50);
    for (const o of result.body as { createdAt: string }[]) expect(o.createdAt.slice(0, 10) >= from && o.createdAt.slice(0, 10) <= to).toBe(true);
    expect(tooMuch).toEqual([]);
  });

  it('finds an order by its reference typed without ORD- on the primary key', async () => {
    const bare = orderReference(someOrder).slice(4);
    const { result, tooMuch } = await recorded((app) => get(app, `/api/orders?q=${bare}`));
    expect(result.body.map((o: { _id: string }) => o._id)).toEqual([someOrder]);
    expect(tooMuch).toEqual([]);
  });

  it("offers the busiest buyer's newest open orders for a transfer without reading their history", async () => {
    const { result, tooMuch } = await recorded((app) => get(app, `/api/admin/payments/${transferId}/orders?q=history@example.com`));
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(20);
    expect(new Set(result.body.map((o: { status: string }) => o.status))).toEqual(new Set(['EXPIRED', 'LATE']));
    expect(tooMuch).toEqual([]);
  });
});
