import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, Prisma } from '@shop/core';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import { reportDrill } from '../../../scripts/testing/drill-report.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

let kit: PaymentKit;
beforeAll(async () => {
  // A pool the size of a production api's, so the drill measures the locking, not a tiny test pool.
  kit = await createPaymentKit({ env: { DATABASE_POOL_SIZE: '20' } });
});
afterAll(async () => {
  await kit?.close();
});

describe('drill: contention', () => {
  it('1,000 duplicate reports of one transaction hash: one payment, paid once, one reward', async () => {
    const referrer = await kit.createUser();
    const buyer = await kit.createUser({ referredById: referrer.id });
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(ANVIL_ACCOUNTS[2], kit.receiving, order.amountWei);
    const statuses: number[] = [];
    // In waves of 100 concurrent requests.
    for (let wave = 0; wave < 10; wave++) {
      const responses = await Promise.all(Array.from({ length: 100 }, () => kit.report(buyer, order.id, hash)));
      statuses.push(...responses.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 202)).toHaveLength(1000);
    await kit.waitForStatus(order.id, 'PAID');
    const payments = await kit.db.payment.count({ where: { txHash: hash.toLowerCase() } });
    const stored = await kit.db.order.findUniqueOrThrow({ where: { id: order.id } });
    const rewards = (await kit.referralEntries(referrer.id)).map((e) => e.amount.toFixed(2));
    reportDrill(`${statuses.filter((s) => s === 202).length.toLocaleString('en-US')} of 1,000 reports answered 202; ${payments} payment row for the hash; order ${stored.status}, paid ${stored.paidVersion} time(s); referral entries: ${rewards.join(', ')}`);
    expect(payments).toBe(1);
    expect(stored.paidVersion).toBe(1);
    expect(rewards).toEqual(['2.50']);
  });

  it('100 concurrent orders for the last 7 items: 7 placed, stock never negative', async () => {
    const product = await createProduct(kit.db, { name: 'Last ones', image: '/images/gold.svg', description: '', price: new Prisma.Decimal('3.00'), countInStock: 7 });
    const buyers = await Promise.all(Array.from({ length: 100 }, () => kit.createUser()));
    const results = await Promise.all(
      buyers.map(async (b) => (await kit.as(b)).post('/api/orders').send({ orderedItems: [{ _id: product.id, qty: 1 }], itemsPrice: 3, totalPrice: 3 })),
    );
    const statuses = results.map((r) => `${r.status} ${r.status === 201 ? '' : r.body.message}`);
    expect(results.filter((r) => r.status === 201), statuses.join('\n')).toHaveLength(7);
    expect(results.filter((r) => r.status === 409), statuses.filter((x) => !x.startsWith('409') && !x.startsWith('201')).join('\n')).toHaveLength(93);
    expect(results.filter((r) => r.status === 409).every((r) => /^Not enough stock for Last ones: \d+ left$/.test(r.body.message))).toBe(true);
    const stock = (await kit.db.product.findUniqueOrThrow({ where: { id: product.id } })).countInStock;
    const items = await kit.db.orderItem.count({ where: { productId: product.id } });
    reportDrill(`${results.filter((r) => r.status === 201).length} orders placed, ${results.filter((r) => r.status === 409).length} refused with 409 'Not enough stock'; stock left ${stock}; ${items} order items`);
    expect(stock).toBe(0);
    expect(items).toBe(7);
  });
});
