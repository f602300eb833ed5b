import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, creditDaily, ledgerSums, Prisma, runDailyCredit } from '@shop/core';
import { createApiTestKit, type ApiTestKit } from '../../../api/src/testing/api-test-kit.ts';

let kit: ApiTestKit;
beforeAll(async () => {
  // The orders are made PAID by hand (what is tested is the credit they earn), with no
  // transfer behind them: the reconciler checks everything else.
  kit = await createApiTestKit({ reconcileSkip: ['paid-not-covered'] });
});
afterAll(async () => {
  await kit?.close();
});

const DAY = 24 * 3600_000;

async function paidOrder(userId: string, paidAt: Date, items: { dailyCredit: string; qty: number; durationDays: number }[]) {
  const product = await createProduct(kit.db, { name: 'P', image: '/images/gold.svg', description: '', price: new Prisma.Decimal('10'), countInStock: 10 });
  return kit.db.order.create({
    data: {
      userId,
      status: 'PAID',
      stockReserved: false,
      itemsPrice: new Prisma.Decimal('10'),
      totalPrice: new Prisma.Decimal('10'),
      paidAt,
      expiresAt: new Date(paidAt.getTime() + Math.max(...items.map((i) => i.durationDays)) * DAY),
      items: {
        // The end of each item's term, as payment sets it (core/src/payments/settle.ts).
        create: items.map((i) => ({
          productId: product.id,
          name: 'P',
          image: '',
          price: new Prisma.Decimal('10'),
          qty: i.qty,
          dailyCredit: new Prisma.Decimal(i.dailyCredit),
          durationDays: i.durationDays,
          creditEndsAt: new Date(paidAt.getTime() + i.durationDays * DAY),
        })),
      },
    },
    include: { items: true },
  });
}

describe('daily credit', () => {
  it('credits dailyCredit x qty per item per UTC day, catches up missed days, never twice, never past the term', async () => {
    const user = await kit.createUser();
    const paidAt = new Date('2026-03-01T10:00:00Z');
    await paidOrder(user.id, paidAt, [
      { dailyCredit: '1.25', qty: 2, durationDays: 3 },
      { dailyCredit: '0.10', qty: 1, durationDays: 30 },
    ]);
    // Day 1 (the first midnight after payment).
    const day1 = await runDailyCredit(kit.env.runtime, new Date('2026-03-02T00:05:00Z'));
    expect(day1.entries).toBe(2);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).activeBalance.toFixed(2)).toBe('2.60');
    // A rerun the same day credits nothing.
    expect((await runDailyCredit(kit.env.runtime, new Date('2026-03-02T09:00:00Z'))).entries).toBe(0);
    // The job missed four days: catch up. The first item's 3-day term ends on 03-04 10:00.
    const caughtUp = await runDailyCredit(kit.env.runtime, new Date('2026-03-06T00:01:00Z'));
    expect(caughtUp.entries).toBe(2 + 4); // item 1: 03-03, 03-04; item 2: 03-03..03-06
    const entries = await kit.db.ledgerEntry.findMany({ where: { userId: user.id, kind: 'DAILY_CREDIT' } });
    expect(entries).toHaveLength(8);
    // Long after both terms (the job stopped for weeks, past the catch-up window): the
    // run reaches back to the last one that completed, and item 2 stops after 30 days.
    await runDailyCredit(kit.env.runtime, new Date('2026-06-01T00:00:00Z'));
    const all = await kit.db.ledgerEntry.findMany({ where: { userId: user.id, kind: 'DAILY_CREDIT' } });
    expect(all).toHaveLength(3 + 30);
    const sums = await ledgerSums(kit.db, user.id);
    expect(sums.active.toFixed(2)).toBe('10.50'); // 3 days x 2.50 + 30 days x 0.10
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).activeBalance.toFixed(2)).toBe(sums.active.toFixed(2));
  });

  it('unpaid orders earn nothing', async () => {
    const user = await kit.createUser();
    const order = await paidOrder(user.id, new Date('2026-03-01T10:00:00Z'), [{ dailyCredit: '5', qty: 1, durationDays: 10 }]);
    await kit.db.order.update({ where: { id: order.id }, data: { status: 'EXPIRED' } });
    await creditDaily(kit.db, new Date('2026-03-05T00:00:00Z'));
    expect(await kit.db.ledgerEntry.count({ where: { userId: user.id } })).toBe(0);
  });

  // Each test below pays its orders in its own year: a run reads only its own items.
  it('reads only items still in their term: one whose term ended before the run is not looked at, nor its days', async () => {
    const user = await kit.createUser();
    // Paid on 01-01: a 10-day item (its term ended 01-11) and a 60-day one (still running).
    const order = await paidOrder(user.id, new Date('2026-01-01T10:00:00Z'), [
      { dailyCredit: '1.00', qty: 1, durationDays: 10 },
      { dailyCredit: '2.00', qty: 1, durationDays: 60 },
    ]);
    const ended = order.items.find((i) => i.durationDays === 10)!;
    // Credited through 01-25 (what the daily runs before would have credited).
    const first = await creditDaily(kit.db, new Date('2026-01-25T00:05:00Z'), { since: new Date('2026-01-01T00:00:00Z') });
    expect(first).toMatchObject({ items: 2, entries: 10 + 24 });
    // The next day's run, its catch-up window starting on 01-19: the ended item is not read.
    const next = await creditDaily(kit.db, new Date('2026-01-26T00:05:00Z'), { since: new Date('2026-01-19T00:00:00Z') });
    expect(next.items).toBe(1);
    // Only the days of the window were looked up for the running item (01-19..01-26), not the 25 since payment.
    expect(next.keys).toBe(8);
    expect(next.entries).toBe(1);
    expect(await kit.db.ledgerEntry.count({ where: { idempotencyKey: { startsWith: `daily:${ended.id}:` } } })).toBe(10);
  });

  it('still completes an item whose term ended inside the catch-up window', async () => {
    const user = await kit.createUser();
    await paidOrder(user.id, new Date('2025-02-01T10:00:00Z'), [{ dailyCredit: '1.00', qty: 1, durationDays: 5 }]);
    // The job ran on 02-02, then not until 02-09: the term ended on 02-06 10:00.
    await creditDaily(kit.db, new Date('2025-02-02T00:05:00Z'), { since: new Date('2025-01-26T00:00:00Z') });
    const later = await creditDaily(kit.db, new Date('2025-02-09T00:05:00Z'), { since: new Date('2025-02-02T00:00:00Z') });
    expect(later).toMatchObject({ items: 1, entries: 4 });
    expect(await kit.db.ledgerEntry.count({ where: { userId: user.id, kind: 'DAILY_CREDIT' } })).toBe(5);
  });

  it('an order that is no longer PAID (its items have no term) is not read', async () => {
    const user = await kit.createUser();
    const order = await paidOrder(user.id, new Date('2024-03-01T10:00:00Z'), [{ dailyCredit: '5', qty: 1, durationDays: 10 }]);
    await kit.db.order.update({ where: { id: order.id }, data: { status: 'VERIFYING', paidAt: null } });
    await kit.db.orderItem.updateMany({ where: { orderId: order.id }, data: { creditEndsAt: null } });
    const run = await creditDaily(kit.db, new Date('2024-03-05T00:00:00Z'), { since: new Date('2024-03-01T00:00:00Z') });
    expect(run).toMatchObject({ items: 0, entries: 0 });
  });

  it('credits a page of many buyers at once; two runs at the same moment credit nothing twice', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => kit.createUser()));
    for (const [n, user] of users.entries()) {
      await paidOrder(user.id, new Date('2023-05-01T10:00:00Z'), [
        { dailyCredit: '0.50', qty: n + 1, durationDays: 20 },
        { dailyCredit: '0.25', qty: 1, durationDays: 3 },
      ]);
    }
    const now = new Date('2023-05-08T00:05:00Z');
    const runs = await Promise.all([1, 2, 3].map(() => creditDaily(kit.db, now, { since: new Date('2023-05-01T00:00:00Z') })));
    // 7 days of the 20-day item and 3 of the 3-day one, per user, once between the three runs.
    expect(runs.reduce((n, r) => n + r.entries, 0)).toBe(6 * (7 + 3));
    expect(runs.flatMap((r) => r.failed)).toEqual([]);
    for (const [n, user] of users.entries()) {
      const balance = (await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).activeBalance;
      expect(balance.toFixed(2)).toBe(new Prisma.Decimal('0.50').times(n + 1).times(7).plus(new Prisma.Decimal('0.75')).toFixed(2));
      expect((await ledgerSums(kit.db, user.id)).active.toFixed(2)).toBe(balance.toFixed(2));
    }
  });

  it('an order that cannot be credited (the database refuses its entries) holds back no other', async () => {
    const [stuck, fine] = [await kit.createUser(), await kit.createUser()];
    const stuckOrder = await paidOrder(stuck.id, new Date('2022-07-01T10:00:00Z'), [{ dailyCredit: '1.00', qty: 1, durationDays: 10 }]);
    await paidOrder(fine.id, new Date('2022-07-01T11:00:00Z'), [{ dailyCredit: '1.00', qty: 1, durationDays: 10 }]);
    await kit.db.$executeRawUnsafe(`CREATE FUNCTION refuse_credit() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`);
    await kit.db.$executeRawUnsafe(`CREATE TRIGGER refuse_credit BEFORE INSERT ON "LedgerEntry" FOR EACH ROW WHEN (NEW."userId" = '${stuck.id}') EXECUTE FUNCTION refuse_credit()`);
    try {
      const run = await creditDaily(kit.db, new Date('2022-07-04T00:05:00Z'), { since: new Date('2022-07-01T00:00:00Z') });
      expect(run.failed.map((f) => f.orderId)).toEqual([stuckOrder.id]);
      expect(run.entries).toBe(3);
      expect((await kit.db.user.findUniqueOrThrow({ where: { id: fine.id } })).activeBalance.toFixed(2)).toBe('3.00');
      expect((await kit.db.user.findUniqueOrThrow({ where: { id: stuck.id } })).activeBalance.toFixed(2)).toBe('0.00');
    } finally {
      await kit.db.$executeRawUnsafe('DROP TRIGGER refuse_credit ON "LedgerEntry"');
      await kit.db.$executeRawUnsafe('DROP FUNCTION refuse_credit()');
    }
  });

  it('an order unpaid while its page is being credited (a reorganisation took its transfer) earns nothing for it', async () => {
    const user = await kit.createUser();
    const order = await paidOrder(user.id, new Date('2021-04-01T10:00:00Z'), [{ dailyCredit: '1.00', qty: 1, durationDays: 10 }]);
    // Settlement unpays the order in a transaction still open (as transferGone does).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let unpaid!: () => void;
    const written = new Promise<void>((resolve) => (unpaid = resolve));
    const unpaying = kit.db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM "Order" WHERE "id" = ${order.id}::uuid FOR UPDATE`;
      await tx.order.update({ where: { id: order.id }, data: { status: 'VERIFYING', paidAt: null } });
      await tx.orderItem.updateMany({ where: { orderId: order.id }, data: { creditEndsAt: null } });
      unpaid();
      await held;
    }, { timeout: 30_000 });
    await written;
    // The run reads the page (the order still PAID to it), then waits for the order's lock.
    const run = creditDaily(kit.db, new Date('2021-04-04T00:05:00Z'), { since: new Date('2021-04-01T00:00:00Z') });
    await expect.poll(async () => (await kit.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FOR SHARE%'`)[0]!.n, { timeout: 10_000 }).toBe(1);
    release();
    await unpaying;
    expect(await run).toMatchObject({ items: 1, entries: 0 });
    expect(await kit.db.ledgerEntry.count({ where: { userId: user.id } })).toBe(0);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).activeBalance.toFixed(2)).toBe('0.00');
  });

  it('the job remembers its last completed run: within the window it reads the window, after a long stop it reaches back', async () => {
    const { runtime } = kit.env;
    const windowDays = runtime.config.dailyCreditCatchUpDays;
    // No record of a completed run (a new shop, or Redis lost its data): every item is read once.
    await runtime.redis.del(`${runtime.config.queuePrefix}:credit:completed-through`);
    expect((await runDailyCredit(runtime, new Date('2026-09-09T00:05:00Z'))).since.getTime()).toBe(0);
    expect((await runDailyCredit(runtime, new Date('2026-09-10T00:05:00Z'))).since.toISOString()).toBe(new Date(Date.UTC(2026, 8, 10) - windowDays * DAY).toISOString());
    expect((await runDailyCredit(runtime, new Date('2026-12-01T00:05:00Z'))).since.toISOString()).toBe('2026-09-10T00:00:00.000Z');
  });
});
