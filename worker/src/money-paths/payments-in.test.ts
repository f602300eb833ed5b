import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerSums } from '@shop/core';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

let kit: PaymentKit;
let referrer: TestUser;
let buyer: TestUser;
let other: TestUser;
const [, , payer, otherPayer] = ANVIL_ACCOUNTS;

beforeAll(async () => {
  kit = await createPaymentKit();
  referrer = await kit.createUser({ name: 'Referrer' });
  buyer = await kit.createUser({ name: 'Buyer', referredById: referrer.id });
  other = await kit.createUser({ name: 'Other' });
});
afterAll(async () => {
  await kit?.close();
});

describe('payment verification on anvil', () => {
  it('an exact payment, reported by the buyer, pays the order once and rewards the referrer once', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    const res = await kit.report(buyer, order.id, hash);
    expect(res.status).toBe(202);
    await kit.waitForStatus(order.id, 'PAID');
    const stored = await kit.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(stored.paidAt).toBeTruthy();
    expect(stored.expiresAt!.getTime() - stored.paidAt!.getTime()).toBe(30 * 24 * 3600_000);
    expect(stored.paidUsd.toFixed(2)).toBe('25.00');
    const rewards = await kit.referralEntries(referrer.id);
    expect(rewards.map((r) => r.amount.toFixed(2))).toEqual(['2.50']);
    expect((await ledgerSums(kit.db, referrer.id)).active.toFixed(2)).toBe('2.50');
    const referrerRow = await kit.db.user.findUniqueOrThrow({ where: { id: referrer.id } });
    expect(referrerRow.activeBalance.toFixed(2)).toBe('2.50');
    // The buyer's receipt e-mail is queued, once.
    expect(await kit.workerRuntime.queues.email.getJob(`receipt-${order.id}`)).toBeTruthy();
    // Reporting the same hash again changes nothing.
    const again = await kit.report(buyer, order.id, hash);
    expect(again.status).toBe(202);
    expect(again.body.status).toBe('COUNTED');
    const detail = await (await kit.as(buyer)).get(`/api/orders/${order.id}`);
    expect(detail.body).toMatchObject({ isPaid: true, status: 'PAID', quote: null });
    expect(detail.body.payments).toEqual([expect.objectContaining({ txHash: hash, status: 'COUNTED', confirmations: 1, requiredConfirmations: 1, reason: null })]);
  });

  it('an underpayment leaves the order UNDERPAID with a top-up quote for the rest (same tag); the top-up pays it', async () => {
    const order = await kit.placeOrder(buyer, 2); // $50
    const partial = order.amountWei / 2n;
    const h1 = await kit.chain.sendAndWait(payer, kit.receiving, partial - (partial % 10n ** 12n) + (order.amountWei % 10n ** 12n));
    await kit.report(buyer, order.id, h1);
    await kit.waitForStatus(order.id, 'UNDERPAID');
    const detail = await (await kit.as(buyer)).get(`/api/orders/${order.id}`);
    expect(detail.body.status).toBe('UNDERPAID');
    expect(detail.body.paidUsd).toBeGreaterThan(24);
    expect(detail.body.paidUsd).toBeLessThan(26);
    const topUp = detail.body.quote;
    expect(topUp.usdAmount).toBeCloseTo(50 - detail.body.paidUsd, 2);
    expect(BigInt(topUp.amountWei) % 10n ** 12n).toBe(order.amountWei % 10n ** 12n);
    const h2 = await kit.chain.sendAndWait(payer, kit.receiving, BigInt(topUp.amountWei));
    await kit.report(buyer, order.id, h2);
    await kit.waitForStatus(order.id, 'PAID');
    const stored = await kit.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(Number(stored.paidUsd.toFixed(2))).toBeGreaterThanOrEqual(50);
    const rewards = await kit.referralEntries(referrer.id);
    expect(rewards.filter((r) => r.reference === `order:${order.id}`).map((r) => r.amount.toFixed(2))).toEqual(['5.00']);
  });

  it('an overpayment pays the order and records the excess', async () => {
    const order = await kit.placeOrder(other);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei + 10n ** 15n * 5n); // +0.005 ETH = $15
    await kit.report(other, order.id, hash);
    await kit.waitForStatus(order.id, 'PAID');
    const stored = await kit.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(Number(stored.overpaidUsd.toFixed(2))).toBeGreaterThanOrEqual(14.99);
  });

  it('a transfer to another address is rejected with a reason, and the order stays unpaid', async () => {
    const order = await kit.placeOrder(other);
    const hash = await kit.chain.sendAndWait(payer, otherPayer, order.amountWei);
    await kit.report(other, order.id, hash);
    const payment = await kit.waitForPayment(hash, ['REJECTED']);
    expect(payment.reason).toBe("Not sent to the shop's receiving address");
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
    const detail = await (await kit.as(other)).get(`/api/orders/${order.id}`);
    expect(detail.body.payments[0]).toMatchObject({ status: 'REJECTED', reason: "Not sent to the shop's receiving address" });
  });

  it('a hash already paying one order is a 409 when reported for another', async () => {
    const first = await kit.placeOrder(buyer);
    const second = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, first.amountWei);
    await kit.report(buyer, first.id, hash);
    await kit.waitForStatus(first.id, 'PAID');
    const res = await kit.report(buyer, second.id, hash);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This transaction was already used for another order');
    expect(await kit.orderStatus(second.id)).toBe('PENDING_PAYMENT');
    expect(await kit.db.payment.count({ where: { txHash: hash.toLowerCase() } })).toBe(1);
  });

  it("claiming another buyer's transfer by reporting its hash pays the real owner's order, not the claimer's", async () => {
    const victimOrder = await kit.placeOrder(other);
    const thiefOrder = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(otherPayer, kit.receiving, victimOrder.amountWei);
    // The thief reports first.
    const res = await kit.report(buyer, thiefOrder.id, hash);
    expect(res.status).toBe(202);
    await kit.waitForStatus(victimOrder.id, 'PAID');
    expect(await kit.orderStatus(thiefOrder.id)).toBe('PENDING_PAYMENT');
    const thiefView = await (await kit.as(buyer)).get(`/api/orders/${thiefOrder.id}`);
    expect(thiefView.body.payments[0]).toMatchObject({ status: 'REJECTED', reason: expect.stringMatching(/another order/) });
    // Nobody can read another user's order.
    expect((await (await kit.as(buyer)).get(`/api/orders/${victimOrder.id}`)).status).toBe(404);
    expect((await kit.report(buyer, victimOrder.id, hash)).status).toBe(404);
  });

  it('a transfer whose amount carries no live tag is kept UNRESOLVED for an admin', async () => {
    const order = await kit.placeOrder(other);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, 10n ** 16n); // round amount: no tag
    await kit.report(other, order.id, hash);
    const payment = await kit.waitForPayment(hash, ['UNRESOLVED']);
    expect(payment.orderId).toBeNull();
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
  });

  it('50 concurrent reports of one hash make one payment and one paid order', async () => {
    const order = await kit.placeOrder(other);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    const responses = await Promise.all(Array.from({ length: 50 }, () => kit.report(other, order.id, hash)));
    expect(responses.every((r) => r.status === 202)).toBe(true);
    await kit.waitForStatus(order.id, 'PAID');
    expect(await kit.db.payment.count({ where: { txHash: hash.toLowerCase() } })).toBe(1);
    const counts = await kit.workerRuntime.queues['payment-verify'].getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed');
    expect(counts.failed).toBe(0);
    const stored = await kit.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(stored.paidVersion).toBe(1);
    expect(stored.paidUsd.toFixed(2)).toBe('25.00');
  });

  it('a malformed hash or another user\'s order is refused before anything is stored', async () => {
    const order = await kit.placeOrder(other);
    const before = await kit.db.payment.count();
    expect((await kit.report(other, order.id, '0x1234' as `0x${string}`)).status).toBe(400);
    expect((await kit.report(buyer, order.id, `0x${'ab'.repeat(32)}`)).status).toBe(404);
    expect((await (await kit.as(null)).put(`/api/orders/${order.id}/purchased`).send({ txHash: `0x${'ab'.repeat(32)}` })).status).toBe(401);
    expect(await kit.db.payment.count()).toBe(before);
  });
});
