import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import pg from 'pg';
import { expireOrders, releaseHeldCashouts, sweepPayments, unsentNotices, walletStanding } from '@shop/core';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { seedHistory } from '../../../scripts/testing/history.ts';
import { readsOf, recordingDb } from '../../../scripts/testing/query-plans.ts';
import { webhookDispatch } from './webhooks.ts';

/**
 * The periodic sweeps run every few seconds or minutes for the life of the shop: each
 * must read the work still open (a few rows here), never the finished history (20,000
 * rows a table here, millions after two years), whatever plan Postgres picks.
 */
const HISTORY = 20_000;
/** What a scan may read: the open rows and some slack, far below the history. */
const BOUND = 200;
const TABLES = ['Order', 'Payment', 'CashoutRequest', 'Refund', 'PayoutCheck', 'WebhookDelivery', 'WebhookEvent', 'Session', 'SecurityNotice'];

let env: TestEnv;
let url: string;

beforeAll(async () => {
  env = await createTestEnv();
  url = env.config.databaseUrl;
  await seedHistory(url, HISTORY);
  // The open work: a few of each kind, old enough for the sweeps to take.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const user = `'00000000-0000-4000-8000-00000000a11c'::uuid`;
    await client.query(`
      INSERT INTO "Payment" ("id", "txHash", "source", "status", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), '0xa' || lpad(to_hex(g), 63, '0'), 'REPORTED', 'PENDING', now() - interval '1 hour', now() - interval '1 hour' FROM generate_series(1, 3) g`);
    await client.query(`
      INSERT INTO "Order" ("id", "userId", "status", "itemsPrice", "totalPrice", "updatedAt", "paidAt", "paymentDeadline", "paidVersion")
      SELECT gen_random_uuid(), ${user}, 'PAID', 10, 10, now(), now() - interval '1 hour', now() - interval '2 hours', 1 FROM generate_series(1, 3) g`);
    await client.query(`
      INSERT INTO "Order" ("id", "userId", "status", "itemsPrice", "totalPrice", "updatedAt", "paymentDeadline", "paymentTag")
      SELECT gen_random_uuid(), ${user}, 'PENDING_PAYMENT', 10, 10, now(), now() - interval '2 hours', g FROM generate_series(1, 2) g`);
    await client.query(`
      INSERT INTO "CashoutRequest" ("id", "userId", "wallet", "amountUsd", "status", "paidAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), ${user}, '0x0000000000000000000000000000000000000001', 25, s, CASE WHEN s = 'PAID' THEN now() - interval '1 hour' END, now() - interval '2 hours', now()
      FROM unnest(ARRAY['REQUESTED', 'REQUESTED', 'PAID', 'PAID']::"CashoutStatus"[]) s`);
    // Two cashouts to new wallets whose wait is over, one still waiting; two security e-mails unsent.
    await client.query(`
      INSERT INTO "CashoutRequest" ("id", "userId", "wallet", "amountUsd", "status", "holdUntil", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), ${user}, '0x0000000000000000000000000000000000000002', 25, 'HELD', now() + (g - 3) * interval '1 hour' + interval '30 minutes', now() - interval '1 day', now()
      FROM generate_series(1, 3) g`);
    await client.query(`
      INSERT INTO "SecurityNotice" ("id", "userId", "kind", "email", "createdAt")
      SELECT gen_random_uuid(), ${user}, 'PASSWORD_CHANGED', 'history@example.com', now() - interval '10 minutes' FROM generate_series(1, 2) g`);
    await client.query(`
      INSERT INTO "Refund" ("id", "source", "userId", "wallet", "walletSource", "amount", "status", "paidAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), 'OVERPAYMENT', ${user}, '0x0000000000000000000000000000000000000001', 'sender', 1, 'PAID', now() - interval '1 hour', now() - interval '2 hours', now() FROM generate_series(1, 2) g`);
    await client.query(`
      INSERT INTO "PayoutCheck" ("id", "txHash", "refundId", "wallet", "expectedAmount", "status", "updatedAt")
      SELECT gen_random_uuid(), '0x' || lpad('1', 64, 'b'), r."id", r."wallet", 1, 'CHECKING', now() FROM "Refund" r WHERE r."paidNoticeSentAt" IS NULL AND r."status" = 'PAID' LIMIT 1`);
    await client.query(`
      INSERT INTO "WebhookEvent" ("id", "type", "subject", "payload") SELECT 'msg_open' || g, 'order.paid', 'order:open-' || (g % 2), '{}'::jsonb FROM generate_series(1, 4) g`);
    await client.query(`
      INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "subject", "seq", "updatedAt")
      SELECT gen_random_uuid(), e."id", '00000000-0000-4000-8000-00000000a11e', e."subject", e."seq", now() FROM "WebhookEvent" e WHERE e."id" LIKE 'msg\\_open%'`);
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
});
afterAll(async () => {
  await env?.close();
});

async function expectOpenWorkOnly(run: (db: ReturnType<typeof recordingDb>['db']) => Promise<unknown>) {
  const rec = recordingDb(url);
  try {
    await run(rec.db);
  } finally {
    await rec.close();
  }
  const reads = await readsOf(url, rec.queries, TABLES);
  expect(reads.length).toBeGreaterThan(0);
  const tooMuch = reads.flatMap(({ sql, scans }) =>
    scans.filter((s) => s.rows > BOUND).map((s) => `${s.node} on ${s.table} (${s.index ?? 'no index'}) read ${s.rows} rows: ${sql}`),
  );
  expect(tooMuch).toEqual([]);
}

describe('the periodic sweeps read open work only', () => {
  it('payment sweep: pending transfers, unsent receipts, cashouts without notice, unnoticed payouts, waiting payout checks', async () => {
    await expectOpenWorkOnly(async (db) => {
      const found = await sweepPayments(db);
      expect(found.pending).toHaveLength(3);
      expect(found.receipts).toHaveLength(3);
      expect(found.cashouts).toHaveLength(2);
      expect(found.payoutNotices).toHaveLength(2 + 2);
      expect(found.checking).toHaveLength(1);
    });
  });

  it("held cashouts whose wait is over, and security e-mails whose job was lost", async () => {
    await expectOpenWorkOnly(async (db) => {
      expect(await unsentNotices(db, new Date(), 500)).toHaveLength(2);
      const { released } = await releaseHeldCashouts(db);
      expect(released).toHaveLength(2);
    });
  });

  it("a cashout's wallet: whether the account was ever paid to it reads that wallet's rows, not the account's 20,000 cashouts", async () => {
    await expectOpenWorkOnly(async (db) => {
      expect(await walletStanding(db, '00000000-0000-4000-8000-00000000a11c', '0x00000000000000000000000000000000000000Aa')).toBe('new');
      expect(await walletStanding(db, '00000000-0000-4000-8000-00000000a11c', '0x0000000000000000000000000000000000000001')).toBe('known');
    });
  });

  it('order expiry: orders whose payment window ran out, and tags to free', async () => {
    await expectOpenWorkOnly(async (db) => {
      const result = await expireOrders(db, env.config);
      expect(result.expired).toBe(2);
    });
  });

  it('webhook relay: the first undelivered event of each subject', async () => {
    await expectOpenWorkOnly(async (db) => {
      const result = await webhookDispatch({ data: {} } as Job<Record<string, never>>, { runtime: { ...env.runtime, db }, logger: env.runtime.logger });
      expect(result).toEqual({ queued: 2 });
    });
  });
});
