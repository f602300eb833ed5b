import { createProduct, createRuntime, indexAndQueue, Prisma, type Runtime } from '@shop/core';
import type { Address, Hash } from 'viem';
import { createApiTestKit, type TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { anvilDriver, waitFor, WAIT_LIMIT_MS } from '../../../scripts/testing/chain.ts';
import type { TestEnvOptions } from '../../../scripts/testing/test-env.ts';
import { processors } from '../processors/index.ts';
import { startWorkers, type ProcessorMap } from '../worker-manager.ts';

/**
 * A shop on anvil for payment tests: the real api app, the real worker processors
 * (in this process, on their own Redis connections), a catalogue, and helpers to place
 * orders, send ETH from anvil's accounts and report hashes as the pay page does.
 */
export async function createPaymentKit(
  opts: { env?: Record<string, string>; workers?: boolean; processorMap?: ProcessorMap; reconcileSkip?: string[]; deposits?: boolean; depositFactory?: TestEnvOptions['depositFactory'] } = {},
) {
  const api = await createApiTestKit({
    chain: true,
    ethUsd: '3000',
    deposits: opts.deposits,
    depositFactory: opts.depositFactory,
    env: { REFERRAL_REWARD_PERCENT: '10', ...opts.env },
    reconcileSkip: opts.reconcileSkip,
  });
  const { env, db } = api;
  const chain = anvilDriver(env.anvil!.rpcUrl);
  const workerRuntime: Runtime = createRuntime(env.config, 'worker');
  const workers = opts.workers === false ? null : startWorkers(workerRuntime, opts.processorMap ?? processors);
  const product = await createProduct(db, { name: 'Gold', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('25.00'), countInStock: 100, dailyCredit: new Prisma.Decimal('1.00'), durationDays: 30 });
  const receiving = env.config.receivingAddress as Address;

  async function placeOrder(user: TestUser, qty = 1, productId = product.id): Promise<{ id: string; amountWei: bigint; totalPrice: number; depositAddress: Address }> {
    const p = await db.product.findUniqueOrThrow({ where: { id: productId } });
    const total = p.price.times(qty).toFixed(2);
    const res = await (await api.as(user)).post('/api/orders').send({ orderedItems: [{ _id: productId, qty }], itemsPrice: total, totalPrice: total });
    if (res.status !== 201) throw new Error(`order failed: ${res.status} ${JSON.stringify(res.body)}`);
    const detail = await (await api.as(user)).get(`/api/orders/${res.body._id}`);
    return { id: res.body._id, amountWei: BigInt(detail.body.quote.amountWei), totalPrice: res.body.totalPrice, depositAddress: detail.body.quote.depositAddress };
  }

  async function report(user: TestUser, orderId: string, txHash: Hash) {
    return (await api.as(user)).put(`/api/orders/${orderId}/purchased`).send({ txHash });
  }

  async function orderStatus(orderId: string) {
    return (await db.order.findUniqueOrThrow({ where: { id: orderId } })).status;
  }

  async function waitForStatus(orderId: string, status: string, timeoutMs = WAIT_LIMIT_MS) {
    return waitFor(`order ${orderId} to be ${status}`, async () => (await orderStatus(orderId)) === status, timeoutMs);
  }

  async function waitForPayment(txHash: string, statuses: string[], timeoutMs = WAIT_LIMIT_MS) {
    return waitFor(`payment ${txHash} in ${statuses.join('/')}`, async () => {
      const p = await db.payment.findFirst({ where: { depositAddress: null, txHash: txHash.toLowerCase(), logIndex: null } });
      return p && statuses.includes(p.status) ? p : null;
    }, timeoutMs);
  }

  /** One pass of the chain indexer; `overrides` stand in for the worker's node (a node that serves less). */
  async function runIndexer(overrides: Partial<Pick<Runtime, 'chain' | 'tracer'>> = {}) {
    return indexAndQueue({ ...workerRuntime, logger: workerRuntime.logger, ...overrides });
  }

  /** Moves an order's quotes (and with `window`, its payment window) into the past, as if time had passed. */
  async function lapse(orderId: string, opts: { window?: boolean } = {}) {
    const now = Date.now();
    const minute = 60_000;
    await db.paymentQuote.updateMany({ where: { orderId }, data: { createdAt: new Date(now - 30 * minute), expiresAt: new Date(now - 15 * minute) } });
    if (opts.window) await db.order.update({ where: { id: orderId }, data: { createdAt: new Date(now - 90 * minute), paymentDeadline: new Date(now - 30 * minute) } });
  }

  /** An admin gives the payout hash of a cashout or a refund (the worker checks it). */
  async function markPayoutPaid(admin: TestUser, kind: 'refunds' | 'cashouts', id: string, payoutTxHash: string) {
    return (await api.as(admin)).post(`/api/admin/${kind}/${id}/paid`).send({ payoutTxHash });
  }

  /** The worker's verdict on the latest hash given for a refund or a cashout. */
  async function payoutVerdict(kind: 'refund' | 'cashout', id: string, statuses = ['ACCEPTED', 'REFUSED']) {
    return waitFor(`the ${kind}'s payout check`, async () => {
      const check = await db.payoutCheck.findFirst({ where: kind === 'refund' ? { refundId: id } : { cashoutId: id }, orderBy: { createdAt: 'desc' } });
      return check && statuses.includes(check.status) ? check : null;
    });
  }

  async function referralEntries(userId: string) {
    return db.ledgerEntry.findMany({ where: { userId, kind: { in: ['REFERRAL_REWARD', 'REFERRAL_REVERSAL'] } }, orderBy: { createdAt: 'asc' } });
  }

  return {
    ...api,
    chain,
    product,
    receiving,
    workerRuntime,
    placeOrder,
    report,
    orderStatus,
    waitForStatus,
    waitForPayment,
    runIndexer,
    lapse,
    markPayoutPaid,
    payoutVerdict,
    referralEntries,
    async close() {
      await workers?.close();
      await workerRuntime.close();
      await api.close();
    },
  };
}

export type PaymentKit = Awaited<ReturnType<typeof createPaymentKit>>;
