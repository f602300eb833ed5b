import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIds } from '@shop/core';
import { orderReference } from '@shop/core/contract';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

let kit: PaymentKit;
let admin: TestUser;
let buyer: TestUser;
const payer = ANVIL_ACCOUNTS[6];

beforeAll(async () => {
  kit = await createPaymentKit();
  admin = await kit.createUser({ isAdmin: true });
  buyer = await kit.createUser();
});
afterAll(async () => {
  await kit?.close();
});

describe('admins resolve transfers that belong to no order', () => {
  it('lists an unresolved transfer and assigns it to the order it was meant for', async () => {
    const order = await kit.placeOrder(buyer);
    // The buyer typed a round amount (no tag): nobody can tell which order it pays.
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, 10n ** 16n); // 0.01 ETH = $30
    await kit.report(buyer, order.id, hash);
    const payment = await kit.waitForPayment(hash, ['UNRESOLVED']);
    const asAdmin = await kit.as(admin);
    const list = await asAdmin.get('/api/admin/payments');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ _id: payment.id, txHash: hash.toLowerCase(), status: 'UNRESOLVED', order: null })]);
    const res = await asAdmin.post(`/api/admin/payments/${payment.id}/assign`).send({ orderId: order.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'COUNTED', orderStatus: 'PAID' });
    expect(await kit.orderStatus(order.id)).toBe('PAID');
    // Paid by the assignment: its receipt is queued.
    expect(await kit.workerRuntime.queues.email.getJob(jobIds.receipt(order.id))).toBeTruthy();
    // Assigning twice is refused; nothing is counted twice.
    const again = await asAdmin.post(`/api/admin/payments/${payment.id}/assign`).send({ orderId: order.id });
    expect(again.status).toBe(409);
    expect((await kit.db.order.findUniqueOrThrow({ where: { id: order.id } })).paidVersion).toBe(1);
  });

  it('requests the refund of an unresolved transfer to its sender: it leaves what admins assign', async () => {
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, 2n * 10n ** 16n);
    const order = await kit.placeOrder(buyer);
    await kit.report(buyer, order.id, hash);
    const payment = await kit.waitForPayment(hash, ['UNRESOLVED']);
    const asAdmin = await kit.as(admin);
    const res = await asAdmin.post(`/api/admin/payments/${payment.id}/refund`).send({});
    expect(res.status).toBe(201);
    const refund = await kit.db.refund.findUniqueOrThrow({ where: { id: res.body.refundId } });
    // Reporting a hash never attributes it: the refund belongs to no order or buyer.
    expect(refund).toMatchObject({ source: 'TRANSFER', wallet: payer.toLowerCase(), walletSource: 'sender', status: 'REQUESTED', orderId: null, userId: null });
    expect(refund.amount.toFixed(0)).toBe((2n * 10n ** 16n).toString());
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe('REFUNDED');
    // Once: a second request, or an assignment, is refused.
    expect((await asAdmin.post(`/api/admin/payments/${payment.id}/refund`).send({})).status).toBe(409);
    expect((await asAdmin.post(`/api/admin/payments/${payment.id}/assign`).send({ orderId: order.id })).status).toBe(409);
    const listed = await asAdmin.get('/api/admin/payments?status=REFUNDED');
    expect(listed.body).toEqual([expect.objectContaining({ _id: payment.id, refund: { _id: refund.id, status: 'REQUESTED', wallet: refund.wallet, payoutTxHash: null } })]);
  });

  it('assigns by the order reference people see (ORD-…, or its eight characters), and says so when no order has it', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, 10n ** 16n);
    await kit.runIndexer();
    const payment = await kit.waitForPayment(hash, ['UNRESOLVED']);
    const asAdmin = await kit.as(admin);
    const unknown = await asAdmin.post(`/api/admin/payments/${payment.id}/assign`).send({ orderId: 'ORD-ZZZZZZZZ' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Order not found' });
    const res = await asAdmin.post(`/api/admin/payments/${payment.id}/assign`).send({ orderId: ` ${orderReference(order.id).slice(4).toLowerCase()} ` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ status: 'COUNTED', orderStatus: 'PAID' });
    expect(await kit.orderStatus(order.id)).toBe('PAID');
    const audit = await kit.db.auditEntry.findFirstOrThrow({ where: { action: 'payment.assign', subjectId: payment.id } });
    expect(audit.after).toMatchObject({ orderId: order.id });
  });

  it('is for admins only, with clear errors for bad input', async () => {
    expect((await (await kit.as(buyer)).get('/api/admin/payments')).status).toBe(403);
    expect((await (await kit.as(null)).get('/api/admin/payments')).status).toBe(401);
    const asAdmin = await kit.as(admin);
    expect((await asAdmin.get('/api/admin/payments?status=NOPE')).status).toBe(400);
    expect((await asAdmin.post('/api/admin/payments/x/assign').send({ orderId: 'y' })).status).toBe(404);
    const p = await kit.db.payment.findFirstOrThrow();
    const bad = await asAdmin.post(`/api/admin/payments/${p.id}/assign`).send({ orderId: 'y' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Order id must be the order's reference (ORD-…) or its id");
  });

  it('two admins assigning late transfers across each other\'s orders at once both get an answer, never a 500', async () => {
    // Late transfers waiting on their orders: each mined after its order's quote lapsed and short at today's price.
    const lateOn = async (order: { id: string; amountWei: bigint }) => {
      await kit.lapse(order.id);
      const hash = await kit.chain.sendAndWait(payer, kit.receiving, 10n ** 15n + (order.amountWei % 10n ** 12n));
      await kit.runIndexer();
      return { order, payment: await kit.waitForPayment(hash, ['LATE']) };
    };
    const asAdmin = await kit.as(admin);
    const other = await kit.as(admin);
    for (let round = 0; round < 4; round++) {
      // Both placed before either transfer is mined (an assignment never takes an earlier transfer).
      const [orderA, orderB] = [await kit.placeOrder(buyer), await kit.placeOrder(buyer)];
      const a = await lateOn(orderA);
      const b = await lateOn(orderB);
      // Crossed: a's transfer to b's order while b's goes to a's.
      const answers = await Promise.all([
        asAdmin.post(`/api/admin/payments/${a.payment.id}/assign`).send({ orderId: b.order.id }),
        other.post(`/api/admin/payments/${b.payment.id}/assign`).send({ orderId: a.order.id }),
      ]);
      expect(answers.map((r) => [r.status, r.body.message])).toEqual([[200, undefined], [200, undefined]]);
    }
  });
});
