import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiTestKit, type ApiTestKit } from '../../../api/src/testing/api-test-kit.ts';
import { Prisma } from '../db.ts';
import { getEthUsd } from './eth-price.ts';
import { openQuote } from './orders.ts';
import { createProduct } from './stock.ts';

let kit: ApiTestKit;
beforeAll(async () => {
  kit = await createApiTestKit({ chain: true });
});
afterAll(async () => {
  await kit?.close();
});

describe('quotes', () => {
  it('a quote is issued for what is due when it is issued: a transfer counted while the price was read leaves nothing to quote', async () => {
    const product = await createProduct(kit.db, { name: 'P', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('20.00'), countInStock: 5 });
    const buyer = await kit.createUser();
    const placed = await (await kit.as(buyer)).post('/api/orders').send({ orderedItems: [{ _id: product.id, qty: 1 }], itemsPrice: 20, totalPrice: 20 });
    const orderId = placed.body._id as string;
    // The first quote lapsed; while the new price is read, the order's payment is counted.
    await kit.db.paymentQuote.updateMany({ where: { orderId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const quote = await openQuote(kit.db, kit.env.config, orderId, async () => {
      await kit.db.order.update({ where: { id: orderId }, data: { status: 'UNDERPAID', paidUsd: new Prisma.Decimal('15.00') } });
      return getEthUsd(kit.env.runtime);
    });
    expect(quote?.usdAmount.toFixed(2)).toBe('5.00');
    // Set back: this order has no transfer behind the paid amount.
    await kit.db.order.update({ where: { id: orderId }, data: { status: 'PENDING_PAYMENT', paidUsd: new Prisma.Decimal('0') } });
  });
});

describe('deleting an order', () => {
  it('waits for a settlement holding one of its payments, instead of deadlocking with it', async () => {
    const product = await createProduct(kit.db, { name: 'D', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('5.00'), countInStock: 5 });
    const buyer = await kit.createUser();
    const admin = await kit.createUser({ isAdmin: true });
    const placed = await (await kit.as(buyer)).post('/api/orders').send({ orderedItems: [{ _id: product.id, qty: 1 }], itemsPrice: 5, totalPrice: 5 });
    const orderId = placed.body._id as string;
    const payment = await kit.db.payment.create({ data: { txHash: `0x${'ab'.repeat(32)}`, source: 'REPORTED', status: 'PENDING', orderId, reportedOrderId: orderId } });
    // What settle.ts does: the payment's row lock, then (a moment later) the order's.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const settling = kit.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "Payment" WHERE "id" = ${payment.id}::uuid FOR UPDATE`;
      await held;
      await tx.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
    });
    const deleting = (await kit.as(admin)).delete(`/api/orders/${orderId}/delete`).then((r) => r);
    await new Promise((r) => setTimeout(r, 300));
    release();
    const [, res] = await Promise.all([settling, deleting]);
    expect(res.status).toBe(200);
    expect((await kit.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe('DELETED');
  });
});
