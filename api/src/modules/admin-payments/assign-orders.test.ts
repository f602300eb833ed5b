import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, Prisma } from '@shop/core';
import { orderReference } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

/**
 * The orders an admin can assign a transfer to, offered by the server (GET
 * /api/admin/payments/:id/orders): the buyer's open orders, found by the buyer's e-mail or
 * name, by an order's reference (with or without ORD-) or id, or, with nothing typed, the
 * orders the transfer was reported for.
 */
let kit: ApiTestKit;
let admin: TestUser;
let una: TestUser;
let otto: TestUser;
let productId: string;
let transferSeq = 0;

const hash = (n: number) => `0x${(0xa55000 + n).toString(16).padStart(64, '0')}`;
const PAYER = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';

beforeAll(async () => {
  // Orders here are moved to expired and underpaid by hand (no expiry job, no transfer behind
  // the $5 paid): the reconciler's checks of those sums are left out.
  kit = await createApiTestKit({ chain: true, ethUsd: '3000', reconcileSkip: ['order-paid-sum', 'stock-held'] });
  admin = await kit.createUser({ name: 'Ada Admin', isAdmin: true });
  una = await kit.createUser({ name: 'Una Unpaid', email: `una-${Date.now()}@example.com` });
  otto = await kit.createUser({ name: 'Otto Other', email: `otto-${Date.now()}@example.com` });
  productId = (
    await createProduct(kit.db, { name: 'Tin Package', image: '/images/tin.svg', description: 'd', price: new Prisma.Decimal('20.00'), countInStock: 50, dailyCredit: new Prisma.Decimal('1.00'), durationDays: 30 })
  ).id;
});
afterAll(async () => {
  await kit?.close();
});

async function placeOrder(user: TestUser): Promise<string> {
  const res = await (await kit.as(user)).post('/api/orders').send({ orderedItems: [{ _id: productId, qty: 1 }], itemsPrice: '20.00', totalPrice: '20.00' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body._id as string;
}

/** A transfer no order took (a round amount, no tag), seen now, mined well after the orders so far were placed. */
async function unresolvedTransfer() {
  transferSeq += 1;
  return kit.db.payment.create({
    data: {
      txHash: hash(transferSeq), source: 'INDEXED', status: 'UNRESOLVED', fromAddress: PAYER, payerAddress: PAYER, amount: new Prisma.Decimal('10000000000000000'),
      blockNumber: 1_000_000n + BigInt(transferSeq), blockHash: hash(1000 + transferSeq), confirmations: 3, reason: 'No open order carries this tag',
    },
  });
}

type Offered = { _id: string; reference: string; status: string; totalPrice: number; dueUsd: number; reported: boolean; buyer: { _id: string; name: string; email: string } };
const ids = (body: Offered[]) => body.map((o) => o._id);

describe('the orders offered for assigning a transfer', () => {
  it("offers the buyer's open orders, newest first, found by e-mail or name: never a paid, cancelled or deleted one, nor one placed after the transfer", async () => {
    const older = await placeOrder(una);
    const expired = await placeOrder(una);
    await kit.db.order.update({ where: { id: expired }, data: { status: 'EXPIRED', stockReserved: false } });
    const underpaid = await placeOrder(una);
    await kit.db.order.update({ where: { id: underpaid }, data: { status: 'UNDERPAID', paidUsd: new Prisma.Decimal('5.00') } });
    const cancelled = await placeOrder(una);
    expect((await (await kit.as(una)).post(`/api/orders/${cancelled}/cancel`)).status).toBe(200);
    const deleted = await placeOrder(una);
    expect((await (await kit.as(admin, { stepUp: true })).delete(`/api/orders/${deleted}/delete`)).status).toBe(200);
    const elsewhere = await placeOrder(otto);
    const transfer = await unresolvedTransfer();
    // Placed after the transfer was seen: it cannot be what the transfer paid.
    await placeOrder(una);

    const as = await kit.as(admin);
    const byEmail = await as.get(`/api/admin/payments/${transfer.id}/orders?q=${encodeURIComponent(una.email.toUpperCase())}`);
    expect(byEmail.status).toBe(200);
    expect(ids(byEmail.body)).toEqual([underpaid, expired, older]);
    expect(byEmail.body[0]).toEqual({
      _id: underpaid,
      reference: orderReference(underpaid),
      status: 'UNDERPAID',
      createdAt: expect.any(String),
      paymentDeadline: expect.any(String),
      totalPrice: 20,
      dueUsd: 15,
      reported: false,
      buyer: { _id: una.id, name: 'Una Unpaid', email: una.email },
    });
    expect(ids((await as.get(`/api/admin/payments/${transfer.id}/orders?q=unpaid`)).body)).toEqual([underpaid, expired, older]);
    expect(ids((await as.get(`/api/admin/payments/${transfer.id}/orders?q=Otto`)).body)).toEqual([elsewhere]);
    expect((await as.get(`/api/admin/payments/${transfer.id}/orders?q=nobody-by-this-name`)).body).toEqual([]);
  });

  it('finds an order by its reference, with or without ORD-, or by its id; with nothing typed, the orders the transfer was reported for', async () => {
    const wanted = await placeOrder(otto);
    const other = await placeOrder(otto);
    const transfer = await unresolvedTransfer();
    const as = await kit.as(admin);
    const reference = orderReference(wanted);
    for (const typed of [reference, reference.toLowerCase(), reference.slice(4), wanted.toUpperCase()]) {
      const res = await as.get(`/api/admin/payments/${transfer.id}/orders?q=${encodeURIComponent(typed)}`);
      expect(res.status, typed).toBe(200);
      expect(ids(res.body), typed).toEqual([wanted]);
    }
    // Nothing reported it yet: nothing to offer before the admin types.
    expect((await as.get(`/api/admin/payments/${transfer.id}/orders`)).body).toEqual([]);
    await kit.db.paymentReport.create({ data: { paymentId: transfer.id, orderId: wanted, userId: otto.id } });
    const reported = await as.get(`/api/admin/payments/${transfer.id}/orders`);
    // The order it was reported for first, then its buyer's other open orders.
    expect(reported.body.map((o: Offered) => [o._id, o.reported])).toEqual([
      [wanted, true],
      ...ids((await as.get(`/api/admin/payments/${transfer.id}/orders?q=${encodeURIComponent(otto.email)}`)).body)
        .filter((id) => id !== wanted)
        .map((id) => [id, false]),
    ]);
    expect(ids(reported.body)).toContain(other);
  });

  it('is for admins, with clear answers for what cannot be offered', async () => {
    const transfer = await unresolvedTransfer();
    expect((await (await kit.as(una)).get(`/api/admin/payments/${transfer.id}/orders?q=x`)).status).toBe(403);
    const as = await kit.as(admin);
    const missing = await as.get('/api/admin/payments/00000000-0000-4000-8000-000000000000/orders?q=una');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Payment not found' });
    expect((await as.get(`/api/admin/payments/${transfer.id}/orders?q=${'x'.repeat(101)}`)).status).toBe(400);
    // A transfer already counted is assigned to nothing.
    await kit.db.payment.update({ where: { id: transfer.id }, data: { status: 'REJECTED' } });
    const counted = await as.get(`/api/admin/payments/${transfer.id}/orders?q=una`);
    expect(counted.status).toBe(409);
    expect(counted.body).toEqual({ message: 'Only unresolved or late transfers can be assigned' });
  });
});
