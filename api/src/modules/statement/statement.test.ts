import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyLedger, exchangeBalance, Prisma, rejectCashout, requestCashout } from '@shop/core';
import type { MyCashoutJson, StatementEntryJson } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

// The order is marked PAID by hand (the real path, paid on chain, is the browser
// journey's: e2e/shopper.e2e.test.ts), so the reconciler finds no transfer covering it.
let kit: ApiTestKit;
let referrer: TestUser;
let buyer: TestUser;
let orderId: string;
const WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

beforeAll(async () => {
  kit = await createApiTestKit({ reconcileSkip: ['paid-not-covered'] });
  referrer = await kit.createUser({ name: 'Rita Referrer' });
  buyer = await kit.createUser({ name: 'Bruno Buyer', referredById: referrer.id });
  const product = await kit.db.product.create({
    data: { name: 'Silver Package', image: '/images/silver.png', description: 'A package', price: new Prisma.Decimal('100'), dailyCredit: new Prisma.Decimal('2.50'), durationDays: 30 },
  });
  const order = await kit.db.order.create({
    data: {
      userId: buyer.id, status: 'PAID', stockReserved: false, itemsPrice: new Prisma.Decimal('100'), totalPrice: new Prisma.Decimal('100'), paidAt: new Date(),
      items: { create: [{ productId: product.id, name: product.name, image: product.image, price: product.price, qty: 1, dailyCredit: product.dailyCredit, durationDays: product.durationDays, creditEndsAt: new Date(Date.now() + 30 * 86_400_000) }] },
    },
  });
  orderId = order.id;
});
afterAll(async () => {
  await kit?.close();
});

async function statementOf(user: TestUser, query = '') {
  const res = await (await kit.as(user)).get(`/api/users/profile/statement${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { entries: res.body as StatementEntryJson[], next: /<([^>]+)>; rel="next"/.exec(String(res.headers.link ?? ''))?.[1] };
}

describe("a user's statement", () => {
  it('shows each balance change newest first, with its unit and what it came from', async () => {
    await applyLedger(kit.db, [
      { userId: referrer.id, account: 'ACTIVE', amount: '30.00', kind: 'ADMIN_ADJUSTMENT', reference: 'test:adjust', idempotencyKey: 'st-adjust' },
    ]);
    await applyLedger(kit.db, [
      { userId: referrer.id, account: 'ACTIVE', amount: '10.00', kind: 'REFERRAL_REWARD', reference: `order:${orderId}`, idempotencyKey: `referral:${orderId}:v1` },
    ]);
    const { cashoutId } = await requestCashout(kit.db, kit.env.runtime.config, { userId: referrer.id, wallet: WALLET });

    const { entries } = await statementOf(referrer);
    expect(entries.map((e) => [e.kind, e.account, e.amount, e.currency])).toEqual([
      ['CASHOUT', 'ACTIVE', '-40.00', 'USD'],
      ['REFERRAL_REWARD', 'ACTIVE', '10.00', 'USD'],
      ['ADMIN_ADJUSTMENT', 'ACTIVE', '30.00', 'USD'],
    ]);
    // The referrer learns who bought, never the buyer's order.
    expect(entries[1]).toMatchObject({ from: 'Bruno Buyer' });
    expect(entries[1]!.order).toBeUndefined();
    expect(entries[0]!.cashout).toMatchObject({ _id: cashoutId, status: 'REQUESTED', amountUsd: '40.00', wallet: WALLET, payoutTxHash: null });

    const waiting = await (await kit.as(referrer)).get('/api/users/profile/cashouts');
    expect((waiting.body as MyCashoutJson[]).map((c) => [c._id, c.status, c.amountUsd])).toEqual([[cashoutId, 'REQUESTED', '40.00']]);
  });

  it('shows a rejected cashout given back, and the request as rejected on both lines', async () => {
    const [request] = (await (await kit.as(referrer)).get('/api/users/profile/cashouts')).body as MyCashoutJson[];
    expect(await rejectCashout(kit.db, request!._id)).toBe(true);
    const { entries } = await statementOf(referrer);
    expect(entries.slice(0, 2).map((e) => [e.kind, e.amount, e.cashout?.status, e.cashoutReturned ?? false])).toEqual([
      ['CASHOUT', '40.00', 'REJECTED', true],
      ['CASHOUT', '-40.00', 'REJECTED', false],
    ]);
    expect((await (await kit.as(referrer)).get('/api/users/profile/cashouts')).body).toEqual([]);
  });

  it("links a buyer's own order, shows both sides of an exchange, and nothing of anyone else", async () => {
    await applyLedger(kit.db, [
      { userId: buyer.id, account: 'ACTIVE', amount: '2.50', kind: 'DAILY_CREDIT', reference: `order:${orderId}`, idempotencyKey: `daily:${orderId}:st` },
    ]);
    await exchangeBalance(kit.db, buyer.id);
    const { entries } = await statementOf(buyer);
    expect(entries.map((e) => [e.kind, e.account, e.amount]).sort()).toEqual([
      ['DAILY_CREDIT', 'ACTIVE', '2.50'],
      ['EXCHANGE', 'ACTIVE', '-2.50'],
      ['EXCHANGE', 'PASSIVE', '2.50'],
    ].sort());
    expect(entries.find((e) => e.kind === 'DAILY_CREDIT')!.order).toEqual({ _id: orderId });
    expect(entries.some((e) => e.kind === 'REFERRAL_REWARD' || e.kind === 'ADMIN_ADJUSTMENT')).toBe(false);
  });

  it('pages with a cursor, each entry once, and asks a guest to sign in', async () => {
    const seen: string[] = [];
    let query = '?limit=2';
    for (let i = 0; i < 5 && query; i += 1) {
      const { entries, next } = await statementOf(referrer, query);
      seen.push(...entries.map((e) => e._id));
      query = next ? next.slice(next.indexOf('?')) : '';
    }
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
    expect((await (await kit.as(null)).get('/api/users/profile/statement')).status).toBe(401);
    expect((await (await kit.as(referrer)).get('/api/users/profile/statement?cursor=nope')).status).toBe(400);
  });
});
