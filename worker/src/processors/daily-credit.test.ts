import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, creditDaily, ledgerSums, Prisma } from '@shop/core';
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
        create: items.map((i) => ({ productId: product.id, name: 'P', image: '', price: new Prisma.Decimal('10'), qty: i.qty, dailyCredit: new Prisma.Decimal(i.dailyCredit), durationDays: i.durationDays })),
      },
    },
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
    const day1 = await creditDaily(kit.db, new Date('2026-03-02T00:05:00Z'));
    expect(day1.entries).toBe(2);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).activeBalance.toFixed(2)).toBe('2.60');
    // A rerun the same day credits nothing.
    expect((await creditDaily(kit.db, new Date('2026-03-02T09:00:00Z'))).entries).toBe(0);
    // The job missed four days: catch up. The first item's 3-day term ends on 03-04 10:00.
    const caughtUp = await creditDaily(kit.db, new Date('2026-03-06T00:01:00Z'));
    expect(caughtUp.entries).toBe(2 + 4); // item 1: 03-03, 03-04; item 2: 03-03..03-06
    const entries = await kit.db.ledgerEntry.findMany({ where: { userId: user.id, kind: 'DAILY_CREDIT' } });
    expect(entries).toHaveLength(8);
    // Long after both terms: item 2 stops after 30 days.
    await creditDaily(kit.db, new Date('2026-06-01T00:00:00Z'));
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
});
