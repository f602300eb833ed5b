import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, custom, type Address } from 'viem';
import { ANVIL_ACCOUNTS, anvilDriver } from '../../../scripts/testing/chain.ts';
import { createCoreTestKit, type CoreTestKit } from '../../../scripts/testing/core-kit.ts';
import { recordingDb, type RecordedQuery } from '../../../scripts/testing/query-plans.ts';
import { Prisma } from '../infra/db.ts';
import { createOrderDesk } from './order-desk.ts';
import { lockOrder, lockPayment, readPayment } from './payment-locks.ts';
import { recordPaymentReport } from './payment-reports.ts';
import { createProduct } from './stock.ts';
import { verifyPayment } from './verifier.ts';

/**
 * What the last confirmation of a payment costs: the statements the worker's
 * verification sends to the database, and the requests it sends to the node, from the
 * job's start to its commit (docs/decisions.md "Where last confirmation to PAID goes").
 * Every statement of the settle transaction is a round trip made while the payment's and
 * the order's rows are locked.
 */
let kit: CoreTestKit;
let recording: ReturnType<typeof recordingDb>;
beforeAll(async () => {
  kit = await createCoreTestKit({ chain: true, env: { PAYMENT_CONFIRMATIONS: '2' } });
  recording = recordingDb(kit.env.config.databaseUrl);
});
afterAll(async () => {
  await recording?.close();
  await kit?.close();
});

const [, , payer] = ANVIL_ACCOUNTS;

/**
 * The statements sent, and the round trips of the settle transaction: from its first
 * statement (the payment's row lock) to its COMMIT, and its BEGIN (not logged).
 */
function split(queries: RecordedQuery[]) {
  const sql = queries.map((q) => q.sql.replace(/\s+/g, ' ').trim());
  const first = sql.findIndex((s) => /FOR UPDATE/.test(s));
  const commit = sql.findIndex((s, i) => i > first && /^COMMIT/.test(s));
  return { sql, before: first, transaction: commit - first + 2 };
}

/** How many rounds the node was asked in: a request sent before any answer came is in the first. */
function rounds(sent: number[]): number {
  return new Set(sent).size;
}

async function settleOnce(opts: { referred: boolean; deposit: boolean }) {
  const { runtime } = kit.env;
  const product = await createProduct(kit.db, { name: 'S', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('25.00'), countInStock: 5, durationDays: 30 });
  const referrer = opts.referred ? await kit.createUser() : null;
  const buyer = await kit.createUser(referrer ? { referredById: referrer.id } : {});
  const order = await createOrderDesk(runtime).place(buyer.id, { orderedItems: [{ _id: product.id, qty: 1 }], itemsPrice: '25.00', totalPrice: '25.00' });
  const quote = await kit.db.paymentQuote.findFirstOrThrow({ where: { orderId: order.id, asset: 'ETH' } });
  const chain = anvilDriver(kit.env.anvil!.rpcUrl);
  let paymentId: string;
  if (opts.deposit) {
    // What an exchange sends: a round amount to the order's deposit address, as the indexer records it.
    const amount = BigInt(quote.amount.toFixed(0));
    const hash = await chain.sendAndWait(payer, order.depositAddress as Address, amount - (amount % 10n ** 12n) + 10n ** 12n);
    const receipt = await chain.wallet.getTransactionReceipt({ hash });
    const created = await kit.db.payment.create({
      data: { txHash: hash.toLowerCase(), depositAddress: order.depositAddress, source: 'INDEXED', status: 'PENDING', fromAddress: payer.toLowerCase(), amount: new Prisma.Decimal(amount.toString()), blockNumber: receipt.blockNumber, blockHash: receipt.blockHash },
    });
    paymentId = created.id;
  } else {
    const hash = await chain.sendAndWait(payer, kit.env.config.receivingAddress as Address, BigInt(quote.amount.toFixed(0)));
    paymentId = (await recordPaymentReport(kit.db, kit.env.config, buyer, order.id, hash.toLowerCase())).paymentId as string;
  }
  // Seen with one confirmation of two, as the worker first sees it: it waits for the next block.
  const deps = { ...runtime, currentAnswer: runtime.assetPrices.valuation };
  expect(await verifyPayment(deps, paymentId)).toMatchObject({ state: 'wait' });
  await chain.mine();
  // Each request with the number of answers the verification had when it was sent.
  const methods: string[] = [];
  const sent: number[] = [];
  let answered = 0;
  const counted = createPublicClient({
    transport: custom({
      request: async ({ method, params }) => {
        methods.push(method);
        sent.push(answered);
        try {
          return await runtime.chain.request({ method, params } as never);
        } finally {
          answered++;
        }
      },
    }),
  });
  recording.queries.length = 0;
  const result = await verifyPayment({ ...deps, db: recording.db, chain: counted as never }, paymentId);
  expect(result).toMatchObject({ state: 'final', status: 'COUNTED' });
  expect((await kit.db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe('PAID');
  return { ...split(recording.queries), methods, rounds: rounds(sent) };
}

describe('settling a payment on its last confirmation', () => {
  // Before: 13 statements in the transaction (15 round trips with BEGIN and COMMIT), 17 with a referral reward; the node asked in two rounds.
  for (const c of [
    { name: 'a reported payment', referred: false, deposit: false, transaction: 7 },
    { name: 'a reported payment whose buyer was referred', referred: true, deposit: false, transaction: 11 },
    { name: 'a deposit', referred: false, deposit: true, transaction: 7 },
  ]) {
    it(`${c.name}: the payment read, then the node asked once, then ${c.transaction} round trips in the settle transaction`, async () => {
      const r = await settleOnce(c);
      const trace = `${r.methods.join(', ')}\n  ${r.sql.join('\n  ')}`;
      // The payment, then the indexer's halt flag (beside the node's answers).
      expect(r.before, trace).toBe(2);
      expect(r.rounds, trace).toBe(1);
      expect(r.transaction, trace).toBe(c.transaction);
    });
  }
});

describe('the locks settlement takes, each with its read in the same statement', () => {
  it('lockPayment, readPayment and lockOrder read exactly what the ORM reads, and lockOrder holds the order it is also given', async () => {
    const { runtime } = kit.env;
    const product = await createProduct(kit.db, { name: 'L', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('12.34'), countInStock: 5, durationDays: 7 });
    const referrer = await kit.createUser();
    const buyer = await kit.createUser({ referredById: referrer.id });
    const desk = createOrderDesk(runtime);
    const line = { orderedItems: [{ _id: product.id, qty: 1 }], itemsPrice: '12.34', totalPrice: '12.34' };
    const [order, other] = [await desk.place(buyer.id, line), await desk.place(buyer.id, line)];
    const payment = await kit.db.payment.create({
      data: { txHash: `0x${'cd'.repeat(32)}`, source: 'REPORTED', orderId: order.id, amount: new Prisma.Decimal('123456789012345678901234567890'), usdValue: new Prisma.Decimal('1.05'), blockNumber: 9_007_199_254_740_993n, blockHash: `0x${'ef'.repeat(32)}`, blockTimestamp: new Date('2026-11-28T10:11:12.345Z'), seenPendingAt: new Date() },
    });
    const byPrisma = (id: string) => kit.db.order.findUniqueOrThrow({ where: { id }, include: { quotes: { orderBy: { createdAt: 'asc' } }, user: { select: { referredById: true } } } });
    const stored = await kit.db.order.findUniqueOrThrow({ where: { id: order.id } });
    await kit.db.$transaction(async (tx) => {
      const byOrm = await kit.db.payment.findUniqueOrThrow({ where: { id: payment.id } });
      expect(await lockPayment(tx, payment.id)).toStrictEqual(byOrm);
      expect(await readPayment(kit.db, payment.id)).toStrictEqual(byOrm);
      expect(await lockOrder(tx, { tag: stored.paymentTag as number }, other.id)).toStrictEqual(await byPrisma(order.id));
      expect(await lockOrder(tx, { depositAddress: (stored.depositAddress as string).toUpperCase() })).toStrictEqual(await byPrisma(order.id));
      // Both orders are held until the transaction ends.
      for (const id of [order.id, other.id]) await expect(kit.db.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${id}::uuid FOR UPDATE NOWAIT`).rejects.toThrow(/lock/);
    });
    await kit.db.$transaction(async (tx) => {
      // No order with that tag: the other one is held all the same.
      expect(await lockOrder(tx, { tag: -1 }, other.id)).toBeNull();
      await expect(kit.db.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${other.id}::uuid FOR UPDATE NOWAIT`).rejects.toThrow(/lock/);
    });
    expect(await kit.db.$transaction((tx) => lockPayment(tx, randomUUID()))).toBeNull();
    // Made by hand: the reconciler's checks of a payment's value do not apply.
    await kit.db.payment.delete({ where: { id: payment.id } });
  });
});
