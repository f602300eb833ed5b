import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import pg from 'pg';
import { openSession } from '../../middleware/auth.ts';
import { createTestEnv, type TestEnv } from '../../../../scripts/testing/test-env.ts';
import { seedHistory } from '../../../../scripts/testing/history.ts';
import { appReads } from '../../testing/app-reads.ts';

/**
 * A scrape runs every 15 seconds and the admin's webhook page on every visit, for the
 * life of the shop: what they count is the work still open (a few rows here), read
 * without walking the finished history (20,000 rows a table here, millions after two
 * years).
 */
const HISTORY = 20_000;
const BOUND = 200;
const TABLES = ['Payment', 'WebhookDelivery', 'CashoutRequest', 'Refund', 'Order', 'PaymentAuthorization'];
const HISTORY_ENDPOINT = '00000000-0000-4000-8000-00000000a11e';

let env: TestEnv;
let url: string;
let adminCookie: string;

beforeAll(async () => {
  env = await createTestEnv();
  url = env.config.databaseUrl;
  await seedHistory(url, HISTORY);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      INSERT INTO "Payment" ("id", "txHash", "source", "status", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), '0xa' || lpad(to_hex(n), 63, '0'), source::"PaymentSource", status::"PaymentStatus", now(), now()
      FROM (SELECT *, row_number() OVER () AS n FROM (VALUES
        ('REPORTED', 'PENDING'), ('REPORTED', 'PENDING'), ('INFLOW', 'UNRESOLVED'), ('INDEXED', 'LATE'), ('INDEXED', 'COUNTED'), ('REPORTED', 'REJECTED')
      ) v(source, status)) s`);
    await client.query(`
      INSERT INTO "WebhookEvent" ("id", "type", "subject", "payload") SELECT 'msg_open' || g, 'order.paid', 'order:open-' || g, '{}'::jsonb FROM generate_series(1, 3) g`);
    await client.query(`
      INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "subject", "seq", "updatedAt")
      SELECT gen_random_uuid(), e."id", '${HISTORY_ENDPOINT}', e."subject", e."seq", now() FROM "WebhookEvent" e WHERE e."id" LIKE 'msg\\_open%'`);
    // Signed payments: one an order of the history, relayed and finished long ago; three of the last day, two still on their way.
    await client.query(`
      INSERT INTO "PaymentAuthorization" ("id", "orderId", "userId", "asset", "fromAddress", "toAddress", "value", "validAfter", "validBefore", "nonce", "signature",
        "status", "feeWei", "feeUsd", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), o."id", o."userId", 'USDC', '0x' || repeat('a', 40), '0x' || repeat('d', 40), 10000000, 0, 2000000000, '0x' || lpad(to_hex(n), 64, '0'), '0x',
        CASE WHEN n <= 3 THEN s.status::"RelayStatus" ELSE 'CONFIRMED' END, CASE WHEN n <= 3 THEN s.fee ELSE 100000000000000 END, CASE WHEN n <= 3 THEN s.usd ELSE 0.30 END,
        CASE WHEN n <= 3 THEN now() - interval '1 hour' ELSE o."createdAt" END, now()
      FROM (SELECT *, row_number() OVER () AS n FROM "Order") o
      LEFT JOIN (VALUES (1, 'CONFIRMED', 40::numeric, 0.12), (2, 'SENT', NULL, NULL), (3, 'RECEIVED', NULL, NULL)) s(k, status, fee, usd) ON s.k = o.n`);
    // Open cashouts: due 2 days ago, waited for a new wallet until 2 days ago (due), still
    // waiting for one, made an hour ago (neither of the last two is over 24 hours).
    await client.query(`
      INSERT INTO "CashoutRequest" ("id", "userId", "wallet", "amountUsd", "status", "holdUntil", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), (SELECT "userId" FROM "CashoutRequest" LIMIT 1), '0x' || repeat('c', 40), 5, v.status::"CashoutStatus", v.hold, v.at, now()
      FROM (VALUES ('REQUESTED', NULL::timestamptz, now() - interval '2 days'), ('NOTIFIED', now() - interval '2 days', now() - interval '5 days'),
                   ('HELD', now() + interval '1 day', now() - interval '3 days'), ('REQUESTED', NULL, now() - interval '1 hour')) v(status, hold, at)`);
    const admin = await client.query<{ id: string }>(`
      INSERT INTO "User" ("id", "name", "email", "passwordHash", "referralCode", "isAdmin", "updatedAt")
      VALUES (gen_random_uuid(), 'Admin', 'admin-reads@example.com', 'x', 'admin-reads', true, now()) RETURNING "id"`);
    adminCookie = (await openSession(env.runtime, admin.rows[0]!.id)).cookie;
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
});
afterAll(async () => {
  await env?.close();
});

async function recorded<T>(run: Parameters<typeof appReads<T>>[1]) {
  const read = await appReads({ url, runtime: env.runtime, tables: TABLES, bound: BOUND }, run);
  return read;
}

describe('what a metrics scrape reads', () => {
  it("counts open payments, webhook deliveries, signed payments and cashouts waiting over a day, the last hour's settled payments and the last day's relay gas, never the history", async () => {
    const { result: text, tooMuch } = await recorded(async (app) => (await request(app).get('/metrics')).text);
    expect(text).toMatch(/^shop_payments\{status="PENDING",source="REPORTED"\} 2$/m);
    expect(text).toMatch(/^shop_payments\{status="UNRESOLVED",source="INFLOW"\} 1$/m);
    expect(text).toMatch(/^shop_payments\{status="LATE",source="INDEXED"\} 1$/m);
    // Settled payments are no longer totals over the whole history: those of the last hour.
    expect(text).not.toMatch(/^shop_payments\{status="COUNTED"/m);
    expect(text).toMatch(/^shop_payments_settled_last_hour\{status="COUNTED",source="INDEXED"\} 1$/m);
    expect(text).toMatch(/^shop_payments_settled_last_hour\{status="REJECTED",source="REPORTED"\} 1$/m);
    expect(text).toMatch(/^shop_webhook_deliveries\{status="PENDING"\} 3$/m);
    expect(text).toMatch(/^shop_webhook_deliveries\{status="FAILED"\} 100$/m);
    expect(text).not.toMatch(/^shop_webhook_deliveries\{status="DELIVERED"/m);
    expect(text).toMatch(/^shop_relay_pending 2$/m);
    expect(text).toMatch(/^shop_relay_gas_wei_24h 40$/m);
    expect(text).toMatch(/^shop_relay_gas_usd_24h 0\.12$/m);
    expect(text).toMatch(/^shop_cashouts_waiting_over_24h 2$/m);
    expect(tooMuch).toEqual([]);
  });
});

describe("what the admin's webhook endpoints read", () => {
  it('counts pending and failed deliveries through their status, and delivered ones among those kept', async () => {
    const { result: body, tooMuch } = await recorded(async (app) => (await request(app).get('/api/admin/webhooks').set('Cookie', adminCookie)).body as { _id: string; counts: unknown }[]);
    expect(body.find((e) => e._id === HISTORY_ENDPOINT)?.counts).toEqual({ pending: 3, failed: 100, delivered: HISTORY - 100 });
    // Delivered ones are counted among the deliveries kept (WEBHOOK_RETENTION_DAYS): an index-only count of those.
    expect(tooMuch.filter((t) => !/"status" = 'DELIVERED'/.test(t))).toEqual([]);
  });
});
