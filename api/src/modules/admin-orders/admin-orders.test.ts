import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, Prisma } from '@shop/core';
import { orderReference } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

let kit: ApiTestKit;
let admin: TestUser;
let buyer: TestUser;
let other: TestUser;
let productId: string;

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const PAYER = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  // The paid order here is paid by hand (a counted transfer row, no chain behind it), with a
  // refund marked paid by hand: the reconciler's checks of what is on chain are left out.
  kit = await createApiTestKit({ chain: true, ethUsd: '3000', reconcileSkip: ['counted-off-chain', 'payout-unverified', 'paid-without-term'] });
  admin = await kit.createUser({ name: 'Ada Admin', isAdmin: true });
  buyer = await kit.createUser({ name: 'Bea Buyer', email: `bea-${Date.now()}@example.com` });
  other = await kit.createUser({ name: 'Otto Other' });
  productId = (
    await createProduct(kit.db, { name: 'Gold Package', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('25.00'), countInStock: 20, dailyCredit: new Prisma.Decimal('1.50'), durationDays: 30 })
  ).id;
});
afterAll(async () => {
  await kit?.close();
});

async function placeOrder(user: TestUser): Promise<string> {
  const res = await (await kit.as(user)).post('/api/orders').send({ orderedItems: [{ _id: productId, qty: 2 }], itemsPrice: '50.00', totalPrice: '50.00' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body._id as string;
}

/** Pays an order by hand: a counted transfer worth $55 ($5 over), a refund of the $5 paid out, and a webhook delivery. */
async function payByHand(orderId: string, n: number) {
  const quote = await kit.db.paymentQuote.findFirstOrThrow({ where: { orderId } });
  const payment = await kit.db.payment.create({
    data: {
      txHash: hash(n), orderId, source: 'INDEXED', status: 'COUNTED', fromAddress: PAYER, payerAddress: PAYER,
      amount: new Prisma.Decimal('18333333333333333'), usdValue: new Prisma.Decimal('55.00'), blockNumber: 123n, blockHash: hash(n + 1),
      confirmations: 3, quoteId: quote.id,
    },
  });
  const paidAt = new Date();
  await kit.db.order.update({
    where: { id: orderId },
    data: { status: 'PAID', paidAt, expiresAt: new Date(paidAt.getTime() + 30 * 86_400_000), paidUsd: new Prisma.Decimal('55.00'), overpaidUsd: new Prisma.Decimal('5.00'), overpaidSettledUsd: new Prisma.Decimal('5.00'), overpaidSettledWei: new Prisma.Decimal('1666666666666666') },
  });
  const refund = await kit.db.refund.create({
    data: { source: 'OVERPAYMENT', paymentId: payment.id, orderId, userId: buyer.id, wallet: PAYER, walletSource: 'sender', amount: new Prisma.Decimal('1666666666666666'), amountUsd: new Prisma.Decimal('5.00'), status: 'PAID', payoutTxHash: hash(n + 2), paidAt },
  });
  const endpoint = await kit.db.webhookEndpoint.create({ data: { url: 'https://hooks.example.com/shop', secret: 'whsec_test', events: ['order.paid'] } });
  const event = await kit.db.webhookEvent.create({ data: { id: `msg_${n}`, type: 'order.paid', subject: `order:${orderId}`, payload: {} } });
  await kit.db.webhookDelivery.create({ data: { eventId: event.id, endpointId: endpoint.id, subject: event.subject, seq: event.seq, status: 'DELIVERED', attempts: 2, lastStatus: 200, deliveredAt: paidAt } });
  return { payment, refund, endpoint };
}

describe('the admin order page read (GET /api/admin/orders/:id)', () => {
  it('shows the items, buyer, quotes, transfers with their confirmations, the refund with its payout and the webhook deliveries', async () => {
    const orderId = await placeOrder(buyer);
    const elsewhere = await placeOrder(other);
    const { refund, endpoint } = await payByHand(orderId, 1000);
    // Another order's delivery is not this order's.
    const otherEvent = await kit.db.webhookEvent.create({ data: { id: 'msg_other', type: 'order.expired', subject: `order:${elsewhere}`, payload: {} } });
    await kit.db.webhookDelivery.create({ data: { eventId: otherEvent.id, endpointId: endpoint.id, subject: otherEvent.subject, seq: otherEvent.seq } });

    const res = await (await kit.as(admin)).get(`/api/admin/orders/${orderId.toUpperCase()}`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({
      _id: orderId,
      reference: orderReference(orderId),
      status: 'PAID',
      isPaid: true,
      totalPrice: 50,
      paidUsd: 55,
      overpaidUsd: 5,
      overpaidSettledUsd: 5,
      items: [{ name: 'Gold Package', price: 25, qty: 2, product: productId, dailyCredit: 1.5, durationDays: 30 }],
      buyer: { _id: buyer.id, name: 'Bea Buyer', email: buyer.email, deleted: false },
      // Everything refunded or credited already: nothing left to refund.
      overpayment: null,
      actions: { canDelete: false, deleteBlockedReason: 'Paid orders cannot be deleted', canRefundOverpayment: false },
    });
    expect(body.quotes.total).toBe(1);
    expect(body.quotes.items[0]).toMatchObject({ usdAmount: 50, ethUsd: '3000.00000000' });
    expect(body.payments).toEqual({
      total: 1,
      items: [
        expect.objectContaining({
          txHash: hash(1000), status: 'COUNTED', source: 'INDEXED', order: orderId, from: PAYER, payer: PAYER, usdValue: 55, valueWei: '18333333333333333', asset: 'ETH', amount: '18333333333333333',
          blockNumber: '123', blockHash: hash(1001), confirmations: 3, requiredConfirmations: kit.env.config.paymentConfirmations, reason: null, reportedOnly: false,
        }),
      ],
    });
    expect(body.refunds.total).toBe(1);
    expect(body.refunds.items[0]).toMatchObject({ _id: refund.id, source: 'OVERPAYMENT', status: 'PAID', payoutTxHash: hash(1002), amountUsd: 5, wallet: PAYER });
    expect(body.deliveries).toEqual({
      total: 1,
      items: [expect.objectContaining({ type: 'order.paid', subject: `order:${orderId}`, status: 'DELIVERED', attempts: 2, lastStatus: 200, endpoint: { _id: endpoint.id, url: 'https://hooks.example.com/shop' } })],
    });
  });

  it('answers 401 to guests, 403 to plain users (even the buyer) and 404 to an unknown or malformed id', async () => {
    const orderId = await placeOrder(buyer);
    expect((await (await kit.as(null)).get(`/api/admin/orders/${orderId}`)).status).toBe(401);
    const asBuyer = await (await kit.as(buyer)).get(`/api/admin/orders/${orderId}`);
    expect(asBuyer.status).toBe(403);
    expect(asBuyer.body).toEqual({ message: 'Not authorized as an admin' });
    for (const id of [MISSING_ID, 'not-an-id']) {
      const res = await (await kit.as(admin)).get(`/api/admin/orders/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ message: 'Order not found' });
    }
  });
});

describe('deleting an order (the rule the pages show)', () => {
  it('is not offered on a paid order, with its reason, and the api refuses it; an unpaid one can be deleted and then says so', async () => {
    const paid = await placeOrder(buyer);
    await payByHand(paid, 2000);
    const unpaid = await placeOrder(buyer);
    const as = await kit.as(admin);

    const list = await as.get(`/api/orders?q=${orderReference(paid)}`);
    expect(list.status).toBe(200);
    expect(list.body.map((o: { _id: string; canDelete: boolean; deleteBlockedReason: string | null }) => [o._id, o.canDelete, o.deleteBlockedReason])).toEqual([
      [paid, false, 'Paid orders cannot be deleted'],
    ]);
    const refused = await as.delete(`/api/orders/${paid}/delete`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'Paid orders cannot be deleted' });
    expect((await kit.db.order.findUniqueOrThrow({ where: { id: paid } })).status).toBe('PAID');

    expect((await as.get(`/api/admin/orders/${unpaid}`)).body.actions).toEqual({ canDelete: true, deleteBlockedReason: null, canRefundOverpayment: false });
    expect((await as.delete(`/api/orders/${unpaid}/delete`)).status).toBe(200);
    const deleted = await as.get(`/api/admin/orders/${unpaid}`);
    expect(deleted.body).toMatchObject({ status: 'DELETED', deletedAt: expect.any(String), actions: { canDelete: false, deleteBlockedReason: 'This order was deleted already' } });
  });
});

describe('the admin order list search', () => {
  it('finds an order by its reference however it is typed, and only the orders in its range', async () => {
    const orderId = await placeOrder(other);
    const reference = orderReference(orderId);
    const as = await kit.as(admin);
    for (const typed of [reference, reference.toLowerCase(), `ORD${reference.slice(4)}`, ` ord ${reference.slice(4)} `]) {
      const res = await as.get(`/api/orders?q=${encodeURIComponent(typed)}`);
      expect(res.status, typed).toBe(200);
      expect(res.body.map((o: { _id: string }) => o._id), typed).toEqual([orderId]);
    }
    // A buyer's name is still searched by name, one that starts like a reference too.
    const byName = await as.get(`/api/orders?q=${encodeURIComponent('Otto Other')}`);
    expect(byName.body.map((o: { _id: string }) => o._id)).toContain(orderId);
    const ordway = await kit.createUser({ name: 'Ordway Smith' });
    const ordwayOrder = await placeOrder(ordway);
    const byOrdName = await as.get(`/api/orders?q=${encodeURIComponent('Ordway Smith')}`);
    expect(byOrdName.body.map((o: { _id: string }) => o._id)).toEqual([ordwayOrder]);
  });

  it('finds an order by its reference typed without ORD-; eight characters that name no order are still a name', async () => {
    const orderId = await placeOrder(await kit.createUser({ name: 'Bram Bare' }));
    const bare = orderReference(orderId).slice(4);
    const as = await kit.as(admin);
    for (const typed of [bare, bare.toLowerCase(), ` ${bare} `]) {
      const res = await as.get(`/api/orders?q=${encodeURIComponent(typed)}`);
      expect(res.status, typed).toBe(200);
      expect(res.body.map((o: { _id: string }) => o._id), typed).toEqual([orderId]);
    }
    // 'Smithson' reads as eight reference characters; no order has that reference, so it is a name.
    const smithson = await kit.createUser({ name: 'Smithson' });
    const smithsonOrder = await placeOrder(smithson);
    const byName = await as.get('/api/orders?q=Smithson');
    expect(byName.body.map((o: { _id: string }) => o._id)).toEqual([smithsonOrder]);
  });
});
