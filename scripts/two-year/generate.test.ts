import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { describeReport } from '@shop/core';
import { diffCatalogs, readCatalog } from '../db/catalog.ts';
import { withClient, withDatabaseName } from '../db/postgres-admin.ts';
import { reconcileTwoYear } from './books.ts';
import { KNOWN_EMAILS, sizesFor } from './shape.ts';
import { cloneTwoYear, dropTwoYearDatabase, ensureTwoYearTemplate, type TwoYearClone, type TwoYearTemplate } from './template.ts';

// The two-year shop at a tiny scale: a template built from the migrations and filled, a
// clone of it as a benchmark run gets one, and the shapes the benchmarks rely on.
const SCALE = 0.002;
const sizes = sizesFor(SCALE);
const adminUrl = inject('postgresAdminUrl');
const templateName = `shop_two_year_t${randomBytes(4).toString('hex')}`;
let template: TwoYearTemplate;
let clone: TwoYearClone;

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return withClient(clone.url, async (client) => (await client.query(sql, params)).rows as T[]);
}
const count = async (sql: string, params: unknown[] = []) => Number((await rows<{ n: string }>(sql, params))[0]?.n);

beforeAll(async () => {
  template = await ensureTwoYearTemplate({ adminUrl, name: templateName, scale: SCALE });
  clone = await cloneTwoYear({ adminUrl, template: templateName });
});

afterAll(async () => {
  await clone?.drop();
  await dropTwoYearDatabase(adminUrl, templateName);
});

describe('the two-year shop at a tiny scale', () => {
  it('is built once and reused while the generator, migrations and scale are the same', async () => {
    expect(template.reused).toBe(false);
    const again = await ensureTwoYearTemplate({ adminUrl, name: templateName, scale: SCALE });
    expect(again.reused).toBe(true);
    expect(again.meta.builtAt).toBe(template.meta.builtAt);
    expect(again.meta.migrations.length).toBeGreaterThan(0);
  });

  it('leaves the schema exactly as the migrations made it', async () => {
    const migrated = await readCatalog(withDatabaseName(adminUrl, inject('templateDatabase')));
    const generated = await readCatalog(clone.url);
    expect(diffCatalogs(migrated, generated, { left: 'migrations', right: 'two-year shop' })).toEqual([]);
  });

  it('has every table filled in proportion to the scale', async () => {
    expect(await count(`SELECT count(*) AS n FROM "User"`)).toBe(sizes.users);
    expect(await count(`SELECT count(*) AS n FROM "Product"`)).toBe(sizes.packages);
    expect(await count(`SELECT count(*) AS n FROM "Order"`)).toBe(sizes.orders);
    expect(await count(`SELECT count(*) AS n FROM "Session"`)).toBe(sizes.sessions);
    expect(await count(`SELECT count(*) AS n FROM "CashoutRequest"`)).toBeGreaterThan(sizes.cashouts * 0.9);
    // About 1.5 transfers and 10 ledger entries per order, as at scale 1 (3M and 20M for 2M orders).
    const payments = await count(`SELECT count(*) AS n FROM "Payment"`);
    expect(payments / sizes.orders).toBeGreaterThan(1.2);
    expect(payments / sizes.orders).toBeLessThan(1.8);
    const entries = await count(`SELECT count(*) AS n FROM "LedgerEntry"`);
    expect(entries / sizes.orders).toBeGreaterThan(7);
    expect(entries / sizes.orders).toBeLessThan(15);
    const deliveries = await count(`SELECT count(*) AS n FROM "WebhookDelivery"`);
    expect(deliveries).toBeGreaterThan(sizes.webhookDeliveries * 0.7);
    expect(deliveries).toBeLessThan(sizes.webhookDeliveries * 1.3);
    expect(await count(`SELECT count(*) AS n FROM "WebhookAttempt"`)).toBeGreaterThan(0);
    for (const table of ['PaymentQuote', 'OrderItem', 'StockMovement', 'PaymentReport', 'Refund', 'PayoutCheck', 'WebhookEvent', 'WebhookEndpoint']) {
      expect(await count(`SELECT count(*) AS n FROM "${table}"`), table).toBeGreaterThan(0);
    }
    const statuses = new Map((await rows<{ status: string; n: string }>(`SELECT "status", count(*) AS n FROM "Order" GROUP BY 1`)).map((r) => [r.status, Number(r.n) / sizes.orders]));
    expect(statuses.get('EXPIRED')).toBeGreaterThan(0.65);
    expect(statuses.get('EXPIRED')).toBeLessThan(0.75);
    expect(statuses.get('PAID')).toBeGreaterThan(0.2);
    expect(statuses.get('PAID')).toBeLessThan(0.3);
    expect(statuses.get('CANCELLED')).toBeGreaterThan(0);
    expect(statuses.get('LATE')).toBeGreaterThan(0);
  });

  it('spreads its dates over the last two years', async () => {
    const [span] = await rows<{ oldest: Date; newest: Date }>(`SELECT min("createdAt") AS oldest, max("createdAt") AS newest FROM "Order"`);
    const day = 24 * 3600_000;
    const builtAt = new Date(template.meta.builtAt).getTime();
    expect((builtAt - span!.oldest.getTime()) / day).toBeGreaterThan(690);
    expect((builtAt - span!.oldest.getTime()) / day).toBeLessThanOrEqual(730);
    expect(span!.newest.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('gives the known referrer the most referrals and the known buyer the most orders', async () => {
    const { accounts } = template.meta;
    expect(accounts.password.length).toBeGreaterThanOrEqual(8);
    const known = await rows<{ email: string; isAdmin: boolean }>(`SELECT "email", "isAdmin" FROM "User" WHERE "id" = ANY($1)`, [
      [accounts.admin.id, accounts.buyer.id, accounts.referrer.id],
    ]);
    expect(known.map((u) => u.email).sort()).toEqual(Object.values(KNOWN_EMAILS).sort());
    expect(known.find((u) => u.email === KNOWN_EMAILS.admin)?.isAdmin).toBe(true);

    const referrers = await rows<{ id: string; n: string }>(`SELECT "referredById" AS id, count(*) AS n FROM "User" WHERE "referredById" IS NOT NULL GROUP BY 1 ORDER BY 2 DESC LIMIT 2`);
    expect(referrers[0]).toEqual({ id: accounts.referrer.id, n: String(sizes.referrals) });
    expect(Number(referrers[1]!.n)).toBeLessThan(sizes.referrals / 3);
    // Each user's kept count of live referrals is the count of them (the profile reads it).
    const miscounted = await rows<{ n: string }>(`SELECT count(*) AS n FROM "User" u
      WHERE u."referralCount" <> (SELECT count(*) FROM "User" r WHERE r."referredById" = u."id" AND r."deletedAt" IS NULL)`);
    expect(miscounted).toEqual([{ n: '0' }]);

    const buyers = await rows<{ id: string; n: string }>(`SELECT "userId" AS id, count(*) AS n FROM "Order" GROUP BY 1 ORDER BY 2 DESC LIMIT 2`);
    expect(buyers[0]).toEqual({ id: accounts.buyer.id, n: String(sizes.bigBuyerOrders) });
    expect(Number(buyers[1]!.n)).toBeLessThan(sizes.bigBuyerOrders / 2);
  });

  it('keeps an open cashout from a year ago behind many newer ones', async () => {
    const { openCashout, buyer } = template.meta.accounts;
    const [cashout] = await rows<{ status: string; userId: string; createdAt: Date }>(`SELECT "status", "userId", "createdAt" FROM "CashoutRequest" WHERE "id" = $1`, [openCashout.id]);
    expect(cashout).toMatchObject({ status: 'REQUESTED', userId: buyer.id });
    const ageDays = (new Date(template.meta.builtAt).getTime() - cashout!.createdAt.getTime()) / (24 * 3600_000);
    expect(ageDays).toBeGreaterThan(364);
    expect(ageDays).toBeLessThan(366);
    const newer = await count(`SELECT count(*) AS n FROM "CashoutRequest" WHERE "createdAt" > $1`, [cashout!.createdAt]);
    expect(newer).toBeGreaterThan(sizes.cashouts * 0.3);
    expect(await count(`SELECT count(*) AS n FROM "CashoutRequest" WHERE "status" IN ('REQUESTED', 'NOTIFIED')`)).toBeGreaterThan(1);
  });

  it('has live orders with unique tags, open windows and their quotes', async () => {
    const live = await rows<{ id: string; status: string; paymentTag: number | null; paymentDeadline: Date; quoteUntil: Date }>(`
      SELECT o."id", o."status", o."paymentTag", o."paymentDeadline", max(q."expiresAt") AS "quoteUntil"
      FROM "Order" o JOIN "PaymentQuote" q ON q."orderId" = o."id"
      WHERE o."status" IN ('PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING') GROUP BY o."id"`);
    expect(live).toHaveLength(sizes.liveOrders);
    expect(new Set(live.map((o) => o.status))).toEqual(new Set(['PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING']));
    expect(live.every((o) => o.paymentTag !== null && o.paymentDeadline.getTime() > Date.now())).toBe(true);
    expect(new Set(live.map((o) => o.paymentTag)).size).toBe(live.length);
    expect(await count(`SELECT count(*) AS n FROM "Order" WHERE "paymentTag" IS NOT NULL`)).toBe(sizes.liveOrders);
    expect(await count(`SELECT count(*) AS n FROM "Payment" WHERE "status" = 'PENDING' AND "blockNumber" IS NOT NULL`)).toBe(0);
  });

  it('writes the ledger as the application does: sums equal balances, typed references, daily keys', async () => {
    expect(
      await count(`
        SELECT count(*) AS n FROM "User" u
        LEFT JOIN (SELECT "userId", sum("amount") FILTER (WHERE "account" = 'ACTIVE') AS a, sum("amount") FILTER (WHERE "account" = 'PASSIVE') AS p
                   FROM "LedgerEntry" GROUP BY 1) l ON l."userId" = u."id"
        WHERE u."activeBalance" <> coalesce(l.a, 0) OR u."passiveBalance" <> coalesce(l.p, 0) OR u."activeBalance" < 0 OR u."passiveBalance" < 0`),
    ).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM "User" WHERE "activeBalance" > 0`)).toBeGreaterThan(sizes.users / 10);
    expect(
      await count(`
        SELECT count(*) AS n FROM "LedgerEntry"
        WHERE "orderId" IS DISTINCT FROM (CASE WHEN "reference" LIKE 'order:%' THEN substring("reference" from 7 for 36)::uuid END)
           OR "cashoutId" IS DISTINCT FROM (CASE WHEN "reference" LIKE 'cashout:%' THEN substring("reference" from 9 for 36)::uuid END)`),
    ).toBe(0);
    // One daily credit per line and UTC day, keyed and dated as core/src/books/daily-credit.ts does.
    expect(
      await count(`
        SELECT count(*) AS n FROM (
          SELECT l.*, substring(l."idempotencyKey" from 44)::date::timestamp AT TIME ZONE 'UTC' AS midnight FROM "LedgerEntry" l WHERE l."kind" = 'DAILY_CREDIT'
        ) l
        LEFT JOIN "OrderItem" i ON i."id" = substring(l."idempotencyKey" from 7 for 36)::uuid
        LEFT JOIN "Order" o ON o."id" = i."orderId"
        WHERE o."id" IS NULL OR l."orderId" <> o."id" OR l."amount" <> i."dailyCredit" * i."qty" OR o."status" <> 'PAID'
           OR l.midnight <= o."paidAt" OR l.midnight > i."creditEndsAt" OR l.midnight > now()`),
    ).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM "LedgerEntry" WHERE "kind" = 'DAILY_CREDIT' AND "idempotencyKey" !~ '^daily:[0-9a-f-]{36}:[0-9]{4}-[0-9]{2}-[0-9]{2}$'`)).toBe(0);
    expect(
      await count(`
        SELECT count(*) AS n FROM "OrderItem" i JOIN "Order" o ON o."id" = i."orderId"
        WHERE "creditEndsAt" IS DISTINCT FROM (CASE WHEN o."status" = 'PAID' THEN o."paidAt" + make_interval(days => i."durationDays") END)`),
    ).toBe(0);
  });

  it('reconciles', async () => {
    const { report } = await reconcileTwoYear(clone.url);
    expect(report.discrepancies, describeReport(report)).toEqual([]);
  });
});
