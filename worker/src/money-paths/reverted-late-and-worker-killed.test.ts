import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { processEnv, startWorkerProcess, type ShopProcess } from '../../../scripts/testing/processes.ts';
import { reportDrill } from '../../../scripts/testing/drill-report.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

const payer = ANVIL_ACCOUNTS[5];

describe('payment edge cases', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit();
    buyer = await kit.createUser({ name: 'Buyer' });
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('a reverted transaction to the receiving address is rejected', async () => {
    // Make the receiving address a contract that reverts on every call.
    await kit.chain.setCode(kit.receiving, '0x60006000fd');
    try {
      const order = await kit.placeOrder(buyer);
      const hash = await kit.chain.send(payer, kit.receiving, order.amountWei, { gas: 100_000n });
      await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      await kit.report(buyer, order.id, hash);
      const payment = await kit.waitForPayment(hash, ['REJECTED']);
      expect(payment.reason).toBe('Transaction failed (reverted) on chain');
      expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
    } finally {
      await kit.chain.setCode(kit.receiving, '0x');
    }
  });

  it('a transfer mined after its quote expired still pays the order when it covers the total at the current price', async () => {
    const order = await kit.placeOrder(buyer);
    await kit.db.paymentQuote.updateMany({ where: { orderId: order.id }, data: { expiresAt: new Date(Date.now() - 60_000), createdAt: new Date(Date.now() - 20 * 60_000) } });
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.report(buyer, order.id, hash);
    await kit.waitForStatus(order.id, 'PAID');
    const payment = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
    expect(payment.reason).toMatch(/after the quote expired/);
  });

  it('a late transfer that falls short at the current price is LATE, for an admin to resolve', async () => {
    const order = await kit.placeOrder(buyer);
    await kit.db.paymentQuote.updateMany({ where: { orderId: order.id }, data: { expiresAt: new Date(Date.now() - 60_000), createdAt: new Date(Date.now() - 20 * 60_000) } });
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei - 10n ** 15n);
    await kit.report(buyer, order.id, hash);
    const payment = await kit.waitForPayment(hash, ['LATE']);
    expect(payment.reason).toMatch(/short of \$/);
    expect(await kit.orderStatus(order.id)).toBe('LATE');
  });
});

describe('drill: the worker killed mid-verification', () => {
  let kit: PaymentKit;
  let worker: ShopProcess | undefined;
  const settings = { PAYMENT_CONFIRMATIONS: '3', JOB_LOCK_MS: '2000', MAINTENANCE_INTERVAL_MS: '1000', REFERRAL_REWARD_PERCENT: '10' };
  beforeAll(async () => {
    // No in-process workers: a real worker process does the work.
    kit = await createPaymentKit({ workers: false, env: settings });
  });
  afterAll(async () => {
    await worker?.kill('SIGKILL');
    await kit?.close();
  });

  // The worker as `npm start` runs it, once it reports itself started (its first
  // heartbeat): starting tsx takes from seconds to most of a minute on a busy machine.
  const startWorker = () => startWorkerProcess('worker', processEnv(kit.env.config, settings));

  it('is restarted and every order is paid exactly once, each reward once', async () => {
    const referrer = await kit.createUser({ name: 'Referrer' });
    const buyers = await Promise.all([0, 1, 2].map(() => kit.createUser({ referredById: referrer.id })));
    const orders: { buyer: TestUser; order: Awaited<ReturnType<PaymentKit['placeOrder']>> }[] = [];
    for (const b of buyers) orders.push({ buyer: b, order: await kit.placeOrder(b) });
    worker = await startWorker();
    // All three transfers in one block, so all wait for the same confirmations.
    await kit.chain.setAutomine(false);
    const hashes: `0x${string}`[] = [];
    for (const { order } of orders) hashes.push(await kit.chain.send(payer, kit.receiving, order.amountWei));
    await kit.chain.mine(1);
    await kit.chain.setAutomine(true);
    for (const [i, { buyer, order }] of orders.entries()) await kit.report(buyer, order.id, hashes[i]!);
    // Verification has started: every payment is seen with 1 of 3 confirmations.
    await waitFor('verification in progress', async () => (await kit.db.order.count({ where: { id: { in: orders.map((o) => o.order.id) }, status: 'VERIFYING' } })) === 3, 120_000).catch(async (err) => {
      const payments = await kit.db.payment.findMany();
      const counts = await kit.workerRuntime.queues['payment-verify'].getJobCounts();
      throw new Error(`${(err as Error).message}; worker said: ${worker?.output().slice(-2000)} payments ${JSON.stringify(payments.map((p) => [p.status, p.confirmations, p.reason]))} jobs ${JSON.stringify(counts)}`);
    });
    await worker.kill('SIGKILL');
    await kit.chain.mine(3);
    worker = await startWorker();
    for (const { order } of orders) await kit.waitForStatus(order.id, 'PAID', 120_000);
    for (const { order } of orders) {
      const stored = await kit.db.order.findUniqueOrThrow({ where: { id: order.id } });
      expect(stored.paidVersion).toBe(1);
    }
    const rewards = await kit.referralEntries(referrer.id);
    reportDrill(`worker SIGKILLed with 3 payments verifying (1 of 3 confirmations), restarted after 3 more blocks: ${orders.length} orders PAID, each once; referral entries ${rewards.map((r) => r.amount.toFixed(2)).join(', ')}`);
    expect(rewards.map((r) => r.amount.toFixed(2))).toEqual(['2.50', '2.50', '2.50']);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: referrer.id } })).activeBalance.toFixed(2)).toBe('7.50');
  }, 600_000);
});
