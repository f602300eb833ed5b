import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import pg from 'pg';
import { addDays, type AdminOverviewJson } from '@shop/core/contract';
import { openSession } from '../../middleware/auth.ts';
import { createTestEnv, type TestEnv } from '../../../../scripts/testing/test-env.ts';
import { seedHistory } from '../../../../scripts/testing/history.ts';
import { appReads } from '../../testing/app-reads.ts';

/**
 * The overview and its exports read the range asked for, never the history: on a shop
 * with 20,000 orders, transfers, ledger entries and users spread over two years, a
 * month's overview and a month's CSVs read about a month of rows (some 900 a table
 * here), through indexes. Postgres reports what each scan read (EXPLAIN ANALYZE); the
 * same queries on the two-year shop (2M orders, 20M ledger entries) are planned by
 * bench/two-year/explain.ts.
 */
const HISTORY = 20_000;
/** A month is about 900 rows of each table here; reading all of one would be 20,000. */
const BOUND = 2_000;
const TABLES = ['Order', 'OrderItem', 'Payment', 'LedgerEntry', 'User', 'CashoutRequest', 'PaymentAuthorization'];

let env: TestEnv;
let url: string;
let adminCookie: string;
// A month in the middle of the history.
const to = addDays(new Date().toISOString().slice(0, 10), -300);
const from = addDays(to, -29);

beforeAll(async () => {
  env = await createTestEnv();
  url = env.config.databaseUrl;
  await seedHistory(url, HISTORY);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const at = `now() - interval '700 days' + g * (interval '670 days' / ${HISTORY})`;
    // Users who registered over the two years, and their ledger: daily credit mostly, a referral reward now and then.
    await client.query(`
      INSERT INTO "User" ("id", "name", "email", "passwordHash", "referralCode", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), 'User ' || g, 'reads-' || g || '@example.com', 'x', 'reads-' || g, ${at}, ${at} FROM generate_series(1, ${HISTORY}) g`);
    await client.query(`
      INSERT INTO "LedgerEntry" ("id", "userId", "account", "amount", "kind", "idempotencyKey", "createdAt")
      SELECT gen_random_uuid(), '00000000-0000-4000-8000-00000000a11c', 'ACTIVE', 1,
        CASE WHEN g % 50 = 0 THEN 'REFERRAL_REWARD'::"LedgerKind" ELSE 'DAILY_CREDIT' END, 'reads-' || g, ${at}
      FROM generate_series(1, ${HISTORY}) g`);
    // A signed USDC payment for each order of the history, its relay's gas paid: 100 gwei-ish, 0.30 dollars.
    await client.query(`
      INSERT INTO "PaymentAuthorization" ("id", "orderId", "userId", "asset", "fromAddress", "toAddress", "value", "validAfter", "validBefore", "nonce", "signature",
        "status", "feeWei", "feeUsd", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), o."id", o."userId", 'USDC', '0x' || repeat('a', 40), '0x' || repeat('d', 40), 10000000, 0, 2000000000, '0x' || lpad(to_hex(n), 64, '0'), '0x',
        CASE WHEN n % 20 = 0 THEN 'FAILED'::"RelayStatus" ELSE 'CONFIRMED' END, 100000000000000, 0.30, o."createdAt", o."createdAt"
      FROM (SELECT *, row_number() OVER () AS n FROM "Order") o`);
    const admin = await client.query<{ id: string }>(`
      INSERT INTO "User" ("id", "name", "email", "passwordHash", "referralCode", "isAdmin", "updatedAt")
      VALUES (gen_random_uuid(), 'Admin', 'admin-overview-reads@example.com', 'x', 'admin-overview-reads', true, now()) RETURNING "id"`);
    adminCookie = (await openSession(env.runtime, admin.rows[0]!.id)).cookie;
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
});
afterAll(async () => {
  await env?.close();
});

async function recorded<T>(run: Parameters<typeof appReads<T>>[1]) {
  const read = await appReads({ url, runtime: env.runtime, tables: TABLES, bound: BOUND, noSeqScan: true }, run);
  return read;
}

describe("what the admin overview reads on a shop's two years", () => {
  it("sums a month's revenue, states, packages, referrals, new users and the relay's gas from that month's rows alone", async () => {
    const { result, tooMuch } = await recorded(async (app) => request(app).get(`/api/admin/overview?from=${from}&to=${to}`).set('Cookie', adminCookie));
    expect(result.status).toBe(200);
    const body = result.body as AdminOverviewJson;
    // The history's paid orders (four in five are paid, $10 each) fall about 30 a day.
    expect(body.totals.paidOrders).toBeGreaterThan(500);
    expect(body.totals.revenue).toBe(`${body.totals.paidOrders * 10}.00`);
    expect(body.totals.newUsers).toBeGreaterThan(500);
    expect(Number(body.totals.referralRewards)).toBeGreaterThan(5);
    expect(body.topPackages[0]).toMatchObject({ name: 'History', revenue: body.totals.revenue });
    // One signed payment an order placed that month (about 30 a day), each 0.30 dollars of gas.
    expect(body.totals.relayedPayments).toBeGreaterThan(600);
    expect(body.totals.relayGasUsd).toBe((body.totals.relayedPayments * 0.3).toFixed(2));
    expect(body.totals.relayGasWei).toBe((BigInt(body.totals.relayedPayments) * 100_000_000_000_000n).toString());
    expect(tooMuch).toEqual([]);
  });

  it("streams a month's paid orders, orders, transfers and ledger a page at a time through indexes", async () => {
    for (const file of ['paid-orders', 'orders', 'payments', 'ledger']) {
      const { result, tooMuch } = await recorded(async (app) => request(app).get(`/api/admin/export/${file}.csv?from=${from}&to=${to}`).set('Cookie', adminCookie));
      expect(result.status, file).toBe(200);
      expect(result.text.split('\r\n').length, file).toBeGreaterThan(500);
      expect(tooMuch, file).toEqual([]);
    }
  });
});
