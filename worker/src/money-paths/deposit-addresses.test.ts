import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTracer, expireOrders, MICRO_ETH_WEI, Prisma, runDepositSweeper } from '@shop/core';
import { depositSalt } from '../../../core/src/deposits/addresses.ts';
import { depositFactoryAbi } from '../../../core/src/deposits/abi.ts';
import type { Address, Hash } from 'viem';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { deployBatchSender } from '../testing/batch-sender.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Paying from an exchange: every order has its own deposit address, and whatever reaches
 * it is that order's, found by the indexer with no report, no tag and no signature (an
 * exchange's withdrawal rounds the amount and comes from its own hot wallet). The rules
 * of any payment still apply: under, over, late, cancelled, reorganized, refunded.
 */
const exchange = ANVIL_ACCOUNTS[4]; // an exchange's hot wallet: nobody the buyer can sign for
const stranger = ANVIL_ACCOUNTS[6];
const FINNEY = 10n ** 15n;

let kit: PaymentKit;
let buyer: TestUser;
let referrer: TestUser;
let admin: TestUser;

beforeAll(async () => {
  kit = await createPaymentKit();
  referrer = await kit.createUser({ name: 'Referrer' });
  buyer = await kit.createUser({ name: 'Buyer', referredById: referrer.id });
  admin = await kit.createUser({ name: 'Admin', isAdmin: true });
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.close();
});

/** The amount the pay page asks an exchange user for: the quote without its tag (rounded up to a millionth). */
const roundOf = (amountWei: bigint) => amountWei - (amountWei % MICRO_ETH_WEI);

async function deposit(to: Address, value: bigint, from: Address = exchange): Promise<Hash> {
  const hash = await kit.chain.sendAndWait(from, to, value);
  await kit.runIndexer();
  return hash;
}

async function depositPayment(hash: Hash, statuses: string[]) {
  return waitFor(`the deposit ${hash} in ${statuses.join('/')}`, async () => {
    const p = await kit.db.payment.findFirst({ where: { txHash: hash.toLowerCase(), depositAddress: { not: null } } });
    return p && statuses.includes(p.status) ? p : null;
  });
}

describe('a deposit address per order', () => {
  it('each order has its own address, in the quote; a round amount from a wallet that cannot sign pays it, found by the indexer alone', async () => {
    const order = await kit.placeOrder(buyer);
    const other = await kit.placeOrder(buyer);
    expect(order.depositAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect(order.depositAddress).not.toBe(other.depositAddress);
    expect(order.depositAddress).not.toBe(kit.receiving.toLowerCase());
    const hash = await deposit(order.depositAddress, roundOf(order.amountWei));
    await kit.waitForStatus(order.id, 'PAID');
    const payment = await depositPayment(hash, ['COUNTED']);
    expect(payment).toMatchObject({ orderId: order.id, depositAddress: order.depositAddress, source: 'INDEXED', fromAddress: exchange.toLowerCase(), payerAddress: null });
    expect((await kit.db.order.findUniqueOrThrow({ where: { id: order.id } })).paidUsd.toFixed(2)).toBe('25.00');
    expect((await kit.referralEntries(referrer.id)).filter((e) => e.reference === `order:${order.id}`).map((e) => e.amount.toFixed(2))).toEqual(['2.50']);
    const detail = await (await kit.as(buyer)).get(`/api/orders/${order.id}`);
    expect(detail.body).toMatchObject({ status: 'PAID', isPaid: true });
    expect(detail.body.payments).toEqual([expect.objectContaining({ txHash: hash, status: 'COUNTED', reason: null })]);
    expect(await kit.orderStatus(other.id)).toBe('PENDING_PAYMENT');
    // Its hash reported for the order, as the pay page would: the deposit, not a second payment to the receiving address.
    const reported = await kit.report(buyer, order.id, hash);
    expect(reported.status).toBe(202);
    expect(reported.body.status).toBe('COUNTED');
    expect(await kit.db.payment.count({ where: { txHash: hash.toLowerCase() } })).toBe(1);
  });

  it("an amount carrying another order's tag pays the order whose address it reached, never the tag's", async () => {
    const mine = await kit.placeOrder(buyer);
    const victim = await kit.placeOrder(referrer);
    const hash = await deposit(mine.depositAddress, victim.amountWei);
    await kit.waitForStatus(mine.id, 'PAID');
    expect((await depositPayment(hash, ['COUNTED'])).orderId).toBe(mine.id);
    expect(await kit.orderStatus(victim.id)).toBe('PENDING_PAYMENT');
  });

  it('an underpayment leaves the order UNDERPAID with a quote for the rest at the same address; a top-up there pays it', async () => {
    const order = await kit.placeOrder(buyer, 2); // $50
    await deposit(order.depositAddress, 10n * FINNEY); // $30 at $3000
    await kit.waitForStatus(order.id, 'UNDERPAID');
    const detail = await (await kit.as(buyer)).get(`/api/orders/${order.id}`);
    expect(detail.body.paidUsd).toBe(30);
    expect(detail.body.quote).toMatchObject({ depositAddress: order.depositAddress, usdAmount: 20 });
    await deposit(order.depositAddress, roundOf(BigInt(detail.body.quote.amountWei)));
    await kit.waitForStatus(order.id, 'PAID');
    expect((await kit.db.order.findUniqueOrThrow({ where: { id: order.id } })).paidUsd.toFixed(2)).toBe('50.00');
  });

  it("an overpayment pays the order; its excess is no exchange wallet's to take back: the buyer credits it or the shop refunds it to a wallet it names", async () => {
    const order = await kit.placeOrder(buyer);
    await deposit(order.depositAddress, roundOf(order.amountWei) + 5n * FINNEY);
    await kit.waitForStatus(order.id, 'PAID');
    const stored = await kit.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(Number(stored.overpaidUsd.toFixed(2))).toBeCloseTo(15, 1);
    const refund = await (await kit.as(buyer)).post(`/api/orders/${order.id}/overpayment`).send({ action: 'refund' });
    expect(refund.status).toBe(409);
    expect(refund.body.message).toMatch(/not sent by a single address/);
    const named = ANVIL_ACCOUNTS[7].toLowerCase();
    const res = await (await kit.as(admin)).post('/api/admin/refunds').send({ orderId: order.id, wallet: named });
    expect(res.status).toBe(201);
    expect(res.body).toEqual([expect.objectContaining({ source: 'OVERPAYMENT', order: order.id, wallet: named, walletSource: 'admin', status: 'REQUESTED' })]);
  });

  it('a deposit to the address of an expired or a cancelled order is kept, LATE, and refundable; never lost', async () => {
    const expired = await kit.placeOrder(buyer);
    await kit.lapse(expired.id, { window: true });
    await expireOrders(kit.db, kit.env.config);
    expect(await kit.orderStatus(expired.id)).toBe('EXPIRED');
    const short = await deposit(expired.depositAddress, 2n * FINNEY); // $6 of $25
    const late = await depositPayment(short, ['LATE']);
    expect(late.orderId).toBe(expired.id);
    expect(late.reason).toMatch(/an admin will resolve it/);
    const asAdmin = await kit.as(admin);
    expect((await asAdmin.post(`/api/admin/payments/${late.id}/refund`).send({})).status).toBe(409);
    const refunded = await asAdmin.post(`/api/admin/payments/${late.id}/refund`).send({ wallet: ANVIL_ACCOUNTS[7] });
    expect(refunded.status).toBe(201);
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: late.id } })).status).toBe('REFUNDED');

    const cancelled = await kit.placeOrder(buyer);
    expect((await (await kit.as(buyer)).post(`/api/orders/${cancelled.id}/cancel`).send({})).status).toBe(200);
    const after = await deposit(cancelled.depositAddress, roundOf(cancelled.amountWei));
    expect(await depositPayment(after, ['LATE'])).toMatchObject({ orderId: cancelled.id, reason: 'Its order was cancelled; an admin will refund it' });
  });

  it('a deposit removed by a reorganization unpays its order and takes back the referral reward', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await deposit(order.depositAddress, roundOf(order.amountWei));
    await kit.waitForStatus(order.id, 'PAID');
    await kit.chain.reorg(1);
    await kit.runIndexer();
    await waitFor('the order to be unpaid', async () => (await kit.orderStatus(order.id)) !== 'PAID');
    const payment = await kit.db.payment.findFirstOrThrow({ where: { txHash: hash.toLowerCase(), depositAddress: order.depositAddress } });
    expect(payment.status).not.toBe('COUNTED');
    const entries = (await kit.referralEntries(referrer.id)).filter((e) => (e.reference ?? "").startsWith(`order:${order.id}`));
    expect(entries.reduce((sum, e) => sum.plus(e.amount), new Prisma.Decimal(0)).toFixed(2)).toBe('0.00');
    // The exchange sends it again (the reorganization dropped its transaction): that one pays it.
    await deposit(order.depositAddress, roundOf(order.amountWei));
    await kit.waitForStatus(order.id, 'PAID');
  });

  it("an exchange's batched withdrawal (one transaction, internal calls) pays each order whose address it reached; a node that cannot trace keeps it as its order's inflow", async () => {
    const batch = await deployBatchSender(kit, exchange);
    const first = await kit.placeOrder(buyer);
    const second = await kit.placeOrder(referrer);
    const hash = await batch([first.depositAddress, second.depositAddress], [roundOf(first.amountWei), roundOf(second.amountWei)]);
    await kit.runIndexer();
    await kit.waitForStatus(first.id, 'PAID');
    await kit.waitForStatus(second.id, 'PAID');
    const payments = await kit.db.payment.findMany({ where: { txHash: hash.toLowerCase() }, orderBy: { depositAddress: 'asc' } });
    expect(payments.map((p) => [p.depositAddress, p.orderId, p.status, p.viaContract])).toEqual(
      [
        [first.depositAddress, first.id, 'COUNTED', true],
        [second.depositAddress, second.id, 'COUNTED', true],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );

    const untraced = await kit.placeOrder(buyer);
    await batch([untraced.depositAddress], [roundOf(untraced.amountWei)]);
    await kit.runIndexer({ tracer: createTracer(kit.workerRuntime.chain, 'off') });
    const inflow = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: untraced.depositAddress } });
    expect(inflow).toMatchObject({ source: 'INFLOW', status: 'UNRESOLVED', orderId: untraced.id });
    expect(inflow.amount?.toFixed(0)).toBe(roundOf(untraced.amountWei).toString());
    expect(inflow.reason).toMatch(/through a contract the node could not trace; an admin will refund it/);
    expect(await kit.orderStatus(untraced.id)).toBe('PENDING_PAYMENT');
    // The shop refunds it to a wallet it names (nobody can sign for it).
    expect((await (await kit.as(admin)).post(`/api/admin/payments/${inflow.id}/refund`).send({ wallet: ANVIL_ACCOUNTS[7] })).status).toBe(201);
  });

  it('dust sent to a deposit address pays nothing and moves no order', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await deposit(order.depositAddress, 1000n);
    expect(await depositPayment(hash, ['UNRESOLVED'])).toMatchObject({ reason: 'Worth less than a cent: it pays no order; an admin will refund it' });
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
  });

  it("a sweep of the deposit addresses (anyone may call it) is the shop's own money: no payment, no unexplained inflow, on a node that traces and one that cannot", async () => {
    const factory = kit.env.config.depositFactoryAddress as Address;
    for (const tracing of ['auto', 'off'] as const) {
      const order = await kit.placeOrder(buyer);
      await deposit(order.depositAddress, roundOf(order.amountWei));
      await kit.waitForStatus(order.id, 'PAID');
      const before = await kit.db.payment.count();
      const sweep = await kit.chain.wallet.writeContract({ account: stranger, address: factory, abi: depositFactoryAbi, functionName: 'sweep', args: [[depositSalt(order.id)]], chain: null });
      await kit.chain.wallet.waitForTransactionReceipt({ hash: sweep, pollingInterval: 50 });
      await kit.runIndexer({ tracer: createTracer(kit.workerRuntime.chain, tracing) });
      expect(await kit.db.payment.count(), `with tracing ${tracing}`).toBe(before);
      // Reported as a payment for another order, it is no payment either.
      const victim = await kit.placeOrder(buyer);
      await kit.report(buyer, victim.id, sweep);
      expect((await kit.waitForPayment(sweep, ['REJECTED'])).reason).toBe("Not sent to the shop's receiving address");
      expect(await kit.orderStatus(victim.id)).toBe('PENDING_PAYMENT');
      await kit.db.payment.deleteMany({ where: { txHash: sweep.toLowerCase() } });
      // The shop's sweeper finds the stranger's sweep by its Flushed events and records it
      // (it paid none of its gas), so its deposits are known to be at the receiving address.
      await runDepositSweeper(kit.workerRuntime);
      await runDepositSweeper(kit.workerRuntime);
      const recorded = await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: sweep.toLowerCase() } });
      expect(recorded).toMatchObject({ status: 'CONFIRMED', fromAddress: stranger.toLowerCase() });
      expect(recorded.feeWei?.toFixed(0)).toBe('0');
      expect(await kit.db.payment.count({ where: { depositAddress: order.depositAddress, sweepId: recorded.id } })).toBe(1);
    }
  });
});

it('placing orders without a deposit factory gives no deposit address', async () => {
  const plain = await createPaymentKit({ deposits: false, workers: false });
  try {
    const user = await plain.createUser();
    const order = await plain.placeOrder(user);
    expect(order.depositAddress).toBeNull();
    expect((await plain.db.order.findUniqueOrThrow({ where: { id: order.id } })).depositAddress).toBeNull();
  } finally {
    await plain.close();
  }
});
