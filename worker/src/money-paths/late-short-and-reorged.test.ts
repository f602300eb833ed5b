import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, creditDaily, expireOrders, jobs, Prisma } from '@shop/core';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * The edges where money went wrong (issue "Money stays right at every edge"): each test
 * drives the shop as it runs (api, worker processors, anvil) into one of them.
 */
const payer = ANVIL_ACCOUNTS[3];
const MINUTE = 60_000;

async function stockOf(kit: PaymentKit, productId: string) {
  return (await kit.db.product.findUniqueOrThrow({ where: { id: productId } })).countInStock;
}

describe('money at the edges', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit();
    buyer = await kit.createUser({ name: 'Buyer' });
    admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  async function twoItemOrder(stockB: number) {
    const a = await createProduct(kit.db, { name: 'A', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('10.00'), countInStock: 10 });
    const b = await createProduct(kit.db, { name: 'B', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('5.00'), countInStock: stockB });
    const res = await (await kit.as(buyer)).post('/api/orders').send({ orderedItems: [{ _id: a.id, qty: 1 }, { _id: b.id, qty: 1 }], itemsPrice: 15, totalPrice: 15 });
    expect(res.status).toBe(201);
    const detail = await (await kit.as(buyer)).get(`/api/orders/${res.body._id}`);
    return { orderId: res.body._id as string, amountWei: BigInt(detail.body.quote.amountWei), a, b };
  }

  it('2. a late payment that finds one item sold out takes no stock at all, however often it is retried', async () => {
    const { orderId, amountWei, a, b } = await twoItemOrder(1);
    await kit.lapse(orderId, { window: true });
    await expireOrders(kit.db, kit.env.config);
    expect(await kit.orderStatus(orderId)).toBe('EXPIRED');
    expect([await stockOf(kit, a.id), await stockOf(kit, b.id)]).toEqual([10, 1]);
    // Someone else buys the last B.
    const other = await kit.createUser();
    expect((await (await kit.as(other)).post('/api/orders').send({ orderedItems: [{ _id: b.id, qty: 1 }], itemsPrice: 5, totalPrice: 5 })).status).toBe(201);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, amountWei);
    await kit.report(buyer, orderId, hash);
    const late = await kit.waitForPayment(hash, ['LATE']);
    expect(late.reason).toMatch(/stock is gone/);
    expect(await stockOf(kit, a.id)).toBe(10);
    for (let i = 0; i < 2; i++) {
      const res = await (await kit.as(admin)).post(`/api/admin/payments/${late.id}/assign`).send({ orderId });
      expect(res.status).toBe(409);
      expect(await stockOf(kit, a.id)).toBe(10);
    }
  });

  it('3. an order whose late transfer falls short gives its stock back when its payment window is over', async () => {
    const order = await kit.placeOrder(buyer);
    const before = await stockOf(kit, kit.product.id);
    await kit.lapse(order.id);
    // A small transfer ($3) that carries the order's tag.
    const tagDigits = order.amountWei % 10n ** 12n;
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, 10n ** 15n + tagDigits);
    await kit.report(buyer, order.id, hash);
    await kit.waitForPayment(hash, ['LATE']);
    expect(await kit.orderStatus(order.id)).toBe('LATE');
    await kit.lapse(order.id, { window: true });
    await expireOrders(kit.db, kit.env.config);
    expect(await stockOf(kit, kit.product.id)).toBe(before + 1);
    expect((await kit.db.order.findUniqueOrThrow({ where: { id: order.id } })).stockReserved).toBe(false);
    expect((await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } })).status).toBe('LATE');
  });

  it('4a. a transfer mined between two quotes (after the first lapsed, well before the second) is valued as late, not rejected', async () => {
    const order = await kit.placeOrder(buyer);
    const q1 = await kit.db.paymentQuote.findFirstOrThrow({ where: { orderId: order.id } });
    const now = Date.now();
    await kit.db.paymentQuote.update({ where: { id: q1.id }, data: { createdAt: new Date(now - 30 * MINUTE), expiresAt: new Date(now - 15 * MINUTE) } });
    const { id: _id, ...rest } = q1;
    await kit.db.paymentQuote.create({ data: { ...rest, createdAt: new Date(now + 5 * MINUTE), expiresAt: new Date(now + 20 * MINUTE) } });
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.report(buyer, order.id, hash);
    const payment = await kit.waitForPayment(hash, ['COUNTED', 'LATE', 'REJECTED', 'UNRESOLVED']);
    expect(payment.status).toBe('COUNTED');
    expect(payment.reason).toMatch(/after the quote expired/);
    expect(await kit.orderStatus(order.id)).toBe('PAID');
  });

  it('4b. a transfer mined before its order was placed waits for an admin (UNRESOLVED), it is not rejected', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    const receipt = await kit.chain.wallet.getTransactionReceipt({ hash });
    await kit.db.order.update({ where: { id: order.id }, data: { placedAtBlock: receipt.blockNumber } });
    await kit.report(buyer, order.id, hash);
    const payment = await kit.waitForPayment(hash, ['UNRESOLVED', 'REJECTED']);
    expect(payment.status).toBe('UNRESOLVED');
    expect(payment.reason).toMatch(/before the order was placed/);
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
  });

  it('4d. a reported hash given up on and mined later is reopened by the indexer and pays its order', async () => {
    const order = await kit.placeOrder(buyer);
    await kit.chain.setAutomine(false);
    let hash: `0x${string}`;
    try {
      hash = await kit.chain.send(payer, kit.receiving, order.amountWei);
      // What a report looks like after an hour of the node not knowing the hash.
      await kit.db.payment.create({
        data: { txHash: hash.toLowerCase(), source: 'REPORTED', status: 'REJECTED', reason: 'Transaction not found on chain', reports: { create: { orderId: order.id, userId: buyer.id } } },
      });
      await kit.chain.mine(1);
    } finally {
      await kit.chain.setAutomine(true);
    }
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    expect((await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } })).status).toBe('COUNTED');
  });

  it('5. a reorg reverses the referral reward even after the referrer exchanged it: the balance goes negative through a reversal entry', async () => {
    const referrer = await kit.createUser({ name: 'Referrer' });
    const referred = await kit.createUser({ name: 'Referred', referredById: referrer.id });
    const order = await kit.placeOrder(referred);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.report(referred, order.id, hash);
    await kit.waitForStatus(order.id, 'PAID');
    expect((await (await kit.as(referrer)).post('/api/users/exchange')).status).toBe(200);
    await kit.chain.reorg(1);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'VERIFYING');
    const row = await kit.db.user.findUniqueOrThrow({ where: { id: referrer.id } });
    expect(row.activeBalance.toFixed(2)).toBe('-2.50');
    expect(row.passiveBalance.toFixed(2)).toBe('2.50');
    const entries = await kit.db.ledgerEntry.findMany({ where: { userId: referrer.id, account: 'ACTIVE' } });
    expect(entries.reduce((s, e) => s.plus(e.amount), new Prisma.Decimal(0)).toFixed(2)).toBe('-2.50');
    const profile = await (await kit.as(referrer)).get('/api/users/profile');
    expect(profile.body.activeBalance).toBe(-2.5);

    // Later credit repays it: a reward for another referred buyer, and daily credit.
    const second = await kit.createUser({ name: 'Referred 2', referredById: referrer.id });
    const small = await createProduct(kit.db, { name: 'Small', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('10.00'), countInStock: 5, dailyCredit: new Prisma.Decimal('0.40') });
    const order2 = await kit.placeOrder(second, 1, small.id); // a $1.00 reward: not enough to repay $2.50
    await kit.report(second, order2.id, await kit.chain.sendAndWait(payer, kit.receiving, order2.amountWei));
    await kit.waitForStatus(order2.id, 'PAID');
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: referrer.id } })).activeBalance.toFixed(2)).toBe('-1.50');
    const own = await kit.placeOrder(referrer, 1, small.id);
    await kit.report(referrer, own.id, await kit.chain.sendAndWait(payer, kit.receiving, own.amountWei));
    await kit.waitForStatus(own.id, 'PAID');
    const credited = await creditDaily(kit.db, new Date(Date.now() + 2 * 24 * 3600_000));
    expect(credited.failed).toEqual([]);
    const after = await kit.db.ledgerEntry.findMany({ where: { userId: referrer.id, kind: 'DAILY_CREDIT' } });
    expect(after.length).toBeGreaterThan(0);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: referrer.id } })).activeBalance.toFixed(2)).toBe(new Prisma.Decimal('-1.50').plus(new Prisma.Decimal('0.40').times(after.length)).toFixed(2));
  });

  it('a counted transfer found in another block (re-mined after a reorg) is followed there, and stays counted', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.report(buyer, order.id, hash);
    await kit.waitForStatus(order.id, 'PAID');
    const receipt = await kit.chain.wallet.getTransactionReceipt({ hash });
    const found = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
    const payment = await kit.db.payment.update({ where: { id: found.id }, data: { blockHash: `0x${'0d'.repeat(32)}` } });
    await jobs.recheckPayment(kit.workerRuntime.queues, { paymentId: payment.id, txHash: payment.txHash });
    await waitFor('the payment to follow its block', async () => (await kit.db.payment.findUniqueOrThrow({ where: { id: payment.id } })).blockHash === receipt.blockHash);
    expect(await kit.orderStatus(order.id)).toBe('PAID');
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe('COUNTED');
  });

  it('8. a deleted order keeps its tag through the monitoring window: no other order can take it, and its transfer waits for an admin', async () => {
    const order = await kit.placeOrder(buyer);
    const { paymentTag } = await kit.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect((await (await kit.as(admin)).delete(`/api/orders/${order.id}/delete`)).status).toBe(200);
    const next = await kit.placeOrder(buyer);
    await expect(kit.db.order.update({ where: { id: next.id }, data: { paymentTag } })).rejects.toThrow();
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.report(buyer, next.id, hash);
    const payment = await kit.waitForPayment(hash, ['UNRESOLVED', 'COUNTED', 'REJECTED']);
    expect(payment.status).toBe('UNRESOLVED');
    expect(payment.reason).toMatch(/deleted/);
    expect(await kit.orderStatus(next.id)).toBe('PENDING_PAYMENT');
  });
});

describe('quotes, the payment window and admin assignment', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit({ env: { PAYMENT_WINDOW_MINUTES: '5', PAYMENT_CONFIRMATIONS: '3' } });
    buyer = await kit.createUser({ name: 'Buyer' });
    admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('6a. a quote never outlives its order\'s payment window', async () => {
    const order = await kit.placeOrder(buyer);
    const stored = await kit.db.order.findUniqueOrThrow({ where: { id: order.id }, include: { quotes: true } });
    expect(stored.quotes[0]!.expiresAt.getTime()).toBeLessThanOrEqual(stored.paymentDeadline!.getTime());
  });

  it('6b. a payment sent inside its quote and still waiting in the mempool holds the order open, and is valued at that quote', async () => {
    const order = await kit.placeOrder(buyer);
    await kit.chain.setAutomine(false);
    try {
      const hash = await kit.chain.send(payer, kit.receiving, order.amountWei);
      await kit.report(buyer, order.id, hash);
      await waitFor('the worker to see the transfer in the mempool', async () => {
        const p = await kit.db.payment.findFirst({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
        return p?.orderId === order.id;
      });
      // Time passes while it waits: the quote lapsed 10 minutes ago, the window 5 minutes
      // ago; it was seen in the mempool while the quote was open.
      const now = Date.now();
      await kit.db.paymentQuote.updateMany({ where: { orderId: order.id }, data: { createdAt: new Date(now - 40 * MINUTE), expiresAt: new Date(now - 10 * MINUTE) } });
      await kit.db.order.update({ where: { id: order.id }, data: { paymentDeadline: new Date(now - 5 * MINUTE) } });
      await kit.db.payment.updateMany({ where: { depositAddress: null, txHash: hash.toLowerCase() }, data: { seenPendingAt: new Date(now - 20 * MINUTE) } });
      await expireOrders(kit.db, kit.env.config);
      expect(await kit.orderStatus(order.id)).not.toBe('EXPIRED');
      expect((await kit.db.order.findUniqueOrThrow({ where: { id: order.id } })).stockReserved).toBe(true);
      await kit.chain.mine(3);
      await kit.waitForStatus(order.id, 'PAID');
      const payment = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
      expect(payment.reason).toBeNull(); // valued at its quote, not late
    } finally {
      await kit.chain.setAutomine(true);
    }
  });

  it('6c. a transaction in the mempool holds only the order it was reported for, and only for the grace after its window', async () => {
    const victim = await kit.placeOrder(buyer);
    const attacker = await kit.createUser({ name: 'Attacker' });
    const own = await kit.placeOrder(attacker);
    await kit.chain.setAutomine(false);
    try {
      // A transaction carrying the victim's tag, never to be mined, reported for the attacker's own order.
      const hash = await kit.chain.send(payer, kit.receiving, victim.amountWei);
      await kit.report(attacker, own.id, hash);
      await waitFor('the worker to see it in the mempool', async () => (await kit.db.payment.findFirst({ where: { depositAddress: null, txHash: hash.toLowerCase() } }))?.seenPendingAt);
      expect((await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } })).orderId).toBeNull();
      expect(await kit.orderStatus(victim.id)).toBe('PENDING_PAYMENT');
      // Reported for the right order it holds it, but not past the grace.
      const mine = await kit.chain.send(payer, kit.receiving, own.amountWei);
      await kit.report(attacker, own.id, mine);
      await waitFor('its own order to be held', async () => (await kit.db.payment.findFirst({ where: { depositAddress: null, txHash: mine.toLowerCase() } }))?.orderId === own.id);
      await kit.db.order.update({ where: { id: own.id }, data: { paymentDeadline: new Date(Date.now() - 5 * MINUTE) } });
      await expireOrders(kit.db, kit.env.config);
      expect(await kit.orderStatus(own.id)).toBe('VERIFYING');
      await kit.db.order.update({ where: { id: own.id }, data: { paymentDeadline: new Date(Date.now() - (kit.env.config.mempoolGraceMinutes + 1) * MINUTE) } });
      await kit.db.order.update({ where: { id: victim.id }, data: { paymentDeadline: new Date(Date.now() - MINUTE) } });
      await expireOrders(kit.db, kit.env.config);
      expect(await kit.orderStatus(own.id)).toBe('EXPIRED');
      expect(await kit.orderStatus(victim.id)).toBe('EXPIRED');
      await kit.chain.dropAll();
    } finally {
      await kit.chain.setAutomine(true);
    }
  });

  it('an order paid in part when its window runs out waits for an admin with what was paid (LATE), and gives its stock back', async () => {
    const order = await kit.placeOrder(buyer);
    const before = await stockOf(kit, kit.product.id);
    const half = order.amountWei / 2n - ((order.amountWei / 2n) % 10n ** 12n) + (order.amountWei % 10n ** 12n);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, half);
    await kit.report(buyer, order.id, hash);
    await kit.chain.mine(3);
    await kit.waitForStatus(order.id, 'UNDERPAID');
    await kit.db.order.update({ where: { id: order.id }, data: { paymentDeadline: new Date(Date.now() - MINUTE) } });
    await expireOrders(kit.db, kit.env.config);
    expect(await kit.orderStatus(order.id)).toBe('LATE');
    const payment = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
    expect(payment).toMatchObject({ status: 'LATE', reason: 'Its order expired before it was fully paid; an admin will refund it or assign it' });
    expect(await stockOf(kit, kit.product.id)).toBe(before + 1);
    // Refunded, the order has nothing left waiting for an admin: its window is over, it expires.
    expect((await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({})).status).toBe(201);
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
    await expireOrders(kit.db, kit.env.config);
    expect(await kit.orderStatus(order.id)).toBe('EXPIRED');
  });

  it('an order waiting on a reported transfer goes back to waiting for payment when that transfer is rejected (reverted)', async () => {
    const order = await kit.placeOrder(buyer);
    await kit.chain.setCode(kit.receiving, '0x60006000fd'); // every call reverts
    await kit.chain.setAutomine(false);
    try {
      const hash = await kit.chain.send(payer, kit.receiving, order.amountWei, { gas: 100_000n });
      await kit.report(buyer, order.id, hash);
      await waitFor('the order to wait on it', async () => (await kit.orderStatus(order.id)) === 'VERIFYING');
      await kit.chain.mine(1);
      await kit.waitForPayment(hash, ['REJECTED']);
      expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
    } finally {
      await kit.chain.setAutomine(true);
      await kit.chain.setCode(kit.receiving, '0x');
    }
  });

  it('7. an admin assignment keeps the verifier\'s rules: enough confirmations, mined after the order was placed', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, 10n ** 16n); // no tag: UNRESOLVED
    await kit.report(buyer, order.id, hash);
    await kit.chain.mine(2);
    const payment = await kit.waitForPayment(hash, ['UNRESOLVED']);
    const early = await kit.createUser();
    const tooSoon = await kit.placeOrder(early); // placed after the transfer was mined
    const asAdmin = await kit.as(admin);
    const refused = await asAdmin.post(`/api/admin/payments/${payment.id}/assign`).send({ orderId: tooSoon.id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/before the order was placed/);
    expect(await kit.orderStatus(tooSoon.id)).toBe('PENDING_PAYMENT');

    const fresh = await kit.chain.sendAndWait(payer, kit.receiving, 10n ** 16n + 1n);
    await kit.report(buyer, order.id, fresh);
    const unconfirmed = await kit.waitForPayment(fresh, ['UNRESOLVED', 'PENDING']);
    await kit.db.payment.update({ where: { id: unconfirmed.id }, data: { status: 'UNRESOLVED' } });
    const early2 = await asAdmin.post(`/api/admin/payments/${unconfirmed.id}/assign`).send({ orderId: order.id });
    expect(early2.status).toBe(409);
    expect(early2.body.message).toMatch(/confirmations/);
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
  });
});
