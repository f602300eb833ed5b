import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { anvilDriver, ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { applyLedger } from '../books/ledger.ts';
import { createProduct, reserveStock } from '../payments/stock.ts';
import { Prisma } from '../infra/db.ts';
import { CHANGES_OVERLAP_MS, latestReconciliation, reconcile, runReconciliation } from './reconcile.ts';
import { newReferralCode } from '../accounts/referral-code.ts';

/**
 * The reconciler finds each kind of broken books, naming the ids to look at. (This
 * file breaks them on purpose, so it uses a bare test env, not a kit that reconciles
 * when it closes.)
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ chain: true });
});
afterAll(async () => {
  await env?.close();
});

const deps = () => env.runtime;
const user = async () =>
  env.runtime.db.user.create({ data: { name: 'U', email: `${randomBytes(4).toString('hex')}@example.com`, passwordHash: '!', referralCode: newReferralCode() } });
const found = async (check: string) => (await reconcile(deps(), { blockWindow: 'all' })).discrepancies.filter((d) => d.check === check);

describe('the reconciler', () => {
  it('finds nothing in books kept through the ledger and the stock module, and keeps its report', async () => {
    const u = await user();
    await applyLedger(env.runtime.db, [{ userId: u.id, account: 'ACTIVE', amount: '10.00', kind: 'DAILY_CREDIT', idempotencyKey: `ok:${u.id}` }]);
    await createProduct(env.runtime.db, { name: 'P', image: '/images/gold.svg', description: '', price: new Prisma.Decimal('1'), countInStock: 3 });
    const report = await runReconciliation(deps());
    expect(report.discrepancies).toEqual([]);
    expect((await latestReconciliation(env.runtime.db))?.checked.users).toBe(1);
  });

  it('ETH recorded twice: an inflow refunded while a transfer through a contract in the same block was counted', async () => {
    const { db } = env.runtime;
    const block = `0x${randomBytes(32).toString('hex')}`;
    const inflow = await db.payment.create({ data: { txHash: `inflow-7-${block.slice(2, 14)}`, source: 'INFLOW', status: 'REFUNDED', amount: new Prisma.Decimal('1000'), blockNumber: 7n, blockHash: block } });
    // Not counted toward an order here (that would raise other checks): waiting for an admin.
    const traced = await db.payment.create({ data: { txHash: `0x${randomBytes(32).toString('hex')}`, source: 'INDEXED', status: 'UNRESOLVED', viaContract: true, amount: new Prisma.Decimal('1000'), blockNumber: 7n, blockHash: block } });
    expect(await found('inflow-also-traced')).toEqual([expect.objectContaining({ ids: { inflowId: inflow.id, paymentId: traced.id } })]);
    // Once its value was taken out of that inflow, it is the same ETH no more.
    await db.payment.update({ where: { id: traced.id }, data: { explainsInflowOf: block } });
    expect(await found('inflow-also-traced')).toEqual([]);
    await db.payment.deleteMany({ where: { id: { in: [inflow.id, traced.id] } } });
  });

  it('money out: a payout marked PAID without a verified transaction, a refund worth more than arrived, an overpayment settled twice', async () => {
    const { db } = env.runtime;
    const u = await user();
    const cashout = await db.cashoutRequest.create({ data: { userId: u.id, wallet: ANVIL_ACCOUNTS[2], amountUsd: new Prisma.Decimal('1'), status: 'PAID', payoutTxHash: `0x${'12'.repeat(32)}` } });
    expect(await found('payout-unverified')).toEqual([{ check: 'payout-unverified', message: 'The cashout is PAID without a payout transaction the worker accepted', ids: { cashoutId: cashout.id } }]);
    const payment = await db.payment.create({ data: { txHash: `0x${randomBytes(32).toString('hex')}`, source: 'INDEXED', status: 'REFUNDED', amount: new Prisma.Decimal('1000') } });
    const refund = await db.refund.create({ data: { source: 'TRANSFER', paymentId: payment.id, wallet: ANVIL_ACCOUNTS[2], walletSource: 'sender', amount: new Prisma.Decimal('2000') } });
    expect(await found('refund-transfer')).toEqual([expect.objectContaining({ ids: { refundId: refund.id } })]);
    const order = await db.order.create({ data: { userId: u.id, status: 'EXPIRED', itemsPrice: new Prisma.Decimal('1'), totalPrice: new Prisma.Decimal('1'), stockReserved: false, overpaidSettledUsd: new Prisma.Decimal('5') } });
    expect((await found('overpayment-settled')).map((d) => d.message)).toEqual([
      'The order records $5.00 of overpayment settled but its refunds and credits add up to $0.00',
      'The order settled $5.00 of overpayment but was overpaid $0.00 (a payment left the chain after it was refunded or credited)',
    ]);
    await db.order.delete({ where: { id: order.id } });
    await db.refund.delete({ where: { id: refund.id } });
    await db.payment.delete({ where: { id: payment.id } });
    await db.cashoutRequest.delete({ where: { id: cashout.id } });
  });

  it('a balance changed outside the ledger', async () => {
    const u = await user();
    await env.runtime.db.user.update({ where: { id: u.id }, data: { activeBalance: new Prisma.Decimal('100') } });
    expect(await found('balance-ledger')).toEqual([{ check: 'balance-ledger', message: 'The active balance is $100.00 but its ledger sums to $0.00', ids: { userId: u.id } }]);
    await env.runtime.db.user.update({ where: { id: u.id }, data: { activeBalance: new Prisma.Decimal('0') } });
  });

  it('stock changed outside the log, and an order holding stock its movements did not take', async () => {
    const { db } = env.runtime;
    const p = await createProduct(db, { name: 'Q', image: '/images/gold.svg', description: '', price: new Prisma.Decimal('1'), countInStock: 5 });
    await db.product.update({ where: { id: p.id }, data: { countInStock: 4 } });
    expect((await found('stock-log')).map((d) => d.ids)).toEqual([{ productId: p.id }]);
    await db.product.update({ where: { id: p.id }, data: { countInStock: 5 } });

    const u = await user();
    const order = await db.order.create({
      data: { userId: u.id, itemsPrice: new Prisma.Decimal('2'), totalPrice: new Prisma.Decimal('2'), stockReserved: false, items: { create: [{ productId: p.id, name: 'Q', image: '', price: new Prisma.Decimal('1'), qty: 2, dailyCredit: new Prisma.Decimal('0'), durationDays: 1 }] } },
    });
    await db.$transaction((tx) => reserveStock(tx, order.id));
    expect(await found('stock-held')).toEqual([]);
    // A partial decrement: the order says it holds nothing, its movements say it took 2.
    await db.order.update({ where: { id: order.id }, data: { stockReserved: false } });
    expect(await found('stock-held')).toEqual([expect.objectContaining({ ids: { orderId: order.id, productId: p.id } })]);
    await db.order.update({ where: { id: order.id }, data: { stockReserved: true } });
  });

  it('a PAID order its transfers do not cover, a paid sum that is not the sum of its transfers, and a tag held twice', async () => {
    const { db } = env.runtime;
    const u = await user();
    const order = await db.order.create({ data: { userId: u.id, status: 'PAID', itemsPrice: new Prisma.Decimal('9'), totalPrice: new Prisma.Decimal('9'), paidUsd: new Prisma.Decimal('9'), stockReserved: false } });
    expect((await found('paid-not-covered')).map((d) => d.ids.orderId)).toContain(order.id);
    expect((await found('order-paid-sum')).map((d) => d.ids.orderId)).toContain(order.id);
    // A paid line without its daily credit term (daily credit would never read it).
    const p = await createProduct(db, { name: 'T', image: '/images/gold.svg', description: '', price: new Prisma.Decimal('9'), countInStock: 0 });
    await db.orderItem.create({ data: { orderId: order.id, productId: p.id, name: 'T', image: '/images/gold.svg', price: new Prisma.Decimal('9'), qty: 1, dailyCredit: new Prisma.Decimal('1'), durationDays: 30 } });
    expect(await found('paid-without-term')).toEqual([
      { check: 'paid-without-term', message: 'The order is PAID but a line has no daily credit term: daily credit does not read it', ids: { orderId: order.id } },
    ]);
    await db.order.update({ where: { id: order.id }, data: { status: 'EXPIRED', paidUsd: new Prisma.Decimal('0') } });
    await db.$executeRaw`DROP INDEX "x_order_payment_tag_live"`;
    try {
      const twins = await Promise.all([0, 1].map(() => db.order.create({ data: { userId: u.id, itemsPrice: new Prisma.Decimal('1'), totalPrice: new Prisma.Decimal('1'), paymentTag: 4242, stockReserved: false } })));
      const [tagged] = await found('tag-twice');
      expect(tagged?.message).toBe('Tag 4242 is held by 2 orders');
      expect(tagged?.ids.orderIds?.split(',').sort()).toEqual(twins.map((o) => o.id).sort());
      await db.order.updateMany({ where: { paymentTag: 4242 }, data: { paymentTag: null } });
    } finally {
      await db.$executeRaw`CREATE UNIQUE INDEX "x_order_payment_tag_live" ON "Order" ("paymentTag") WHERE "paymentTag" IS NOT NULL`;
    }
  });

  it('a counted transfer whose block left the chain, and a referral reward posted twice', async () => {
    const { db } = env.runtime;
    const chain = anvilDriver(env.anvil!.rpcUrl);
    const hash = await chain.sendAndWait(ANVIL_ACCOUNTS[0], ANVIL_ACCOUNTS[1], 10n ** 15n);
    const receipt = await chain.wallet.getTransactionReceipt({ hash });
    const u = await user();
    const referrer = await user();
    const order = await db.order.create({ data: { userId: u.id, status: 'PAID', itemsPrice: new Prisma.Decimal('3'), totalPrice: new Prisma.Decimal('3'), paidUsd: new Prisma.Decimal('3'), stockReserved: false } });
    const payment = await db.payment.create({
      data: { txHash: hash.toLowerCase(), source: 'INDEXED', status: 'COUNTED', orderId: order.id, usdValue: new Prisma.Decimal('3'), blockNumber: receipt.blockNumber, blockHash: receipt.blockHash },
    });
    expect(await found('counted-off-chain')).toEqual([]);
    await chain.reorg(1);
    expect(await found('counted-off-chain')).toEqual([expect.objectContaining({ ids: { paymentId: payment.id, txHash: hash.toLowerCase() } })]);

    for (const v of [1, 2]) {
      await applyLedger(db, [{ userId: referrer.id, account: 'ACTIVE', amount: '0.30', kind: 'REFERRAL_REWARD', reference: `order:${order.id}`, idempotencyKey: `referral:${order.id}:v${v}` }]);
    }
    expect((await found('referral-reward')).map((d) => d.ids)).toEqual([{ orderId: order.id }]);
  });

  it('a transfer confirmed on chain that nothing settles', async () => {
    const { db } = env.runtime;
    const chain = anvilDriver(env.anvil!.rpcUrl);
    const hash = await chain.sendAndWait(ANVIL_ACCOUNTS[0], ANVIL_ACCOUNTS[1], 10n ** 15n);
    const receipt = await chain.wallet.getTransactionReceipt({ hash });
    const payment = await db.payment.create({ data: { txHash: hash.toLowerCase(), source: 'INDEXED', status: 'PENDING', blockNumber: receipt.blockNumber, blockHash: receipt.blockHash } });
    expect(await found('payment-stuck')).toEqual([]); // just seen: not stuck
    await db.$executeRaw`UPDATE "Payment" SET "updatedAt" = now() - interval '11 minutes' WHERE "id" = ${payment.id}::uuid`;
    expect((await found('payment-stuck')).map((d) => d.ids)).toEqual([{ paymentId: payment.id, txHash: hash.toLowerCase() }]);
    await db.payment.update({ where: { id: payment.id }, data: { status: 'REJECTED' } });
  });

  it('a cashout whose ledger entry does not match its amount', async () => {
    const { db } = env.runtime;
    const u = await user();
    const request = await db.cashoutRequest.create({ data: { userId: u.id, wallet: ANVIL_ACCOUNTS[2], amountUsd: new Prisma.Decimal('25') } });
    expect(await found('cashout-ledger')).toEqual([{ check: 'cashout-ledger', message: 'The cashout of $25.00 (REQUESTED) has ledger entries summing to $0.00', ids: { cashoutId: request.id } }]);
  });
});

describe('the scheduled run: what changed since the last one', () => {
  const db = () => env.runtime.db;
  const tamper = (id: string, amount: string) => db().$executeRaw`UPDATE "User" SET "activeBalance" = ${new Prisma.Decimal(amount)} WHERE "id" = ${id}::uuid`;
  // Stamps from the past for rows written by hand (the run looks back CHANGES_OVERLAP_MS).
  const longAgo = new Date(Date.now() - 24 * 3600_000);

  it('reads only the subjects changed since, finds what is wrong there, and reports an open discrepancy again until it is fixed', async () => {
    // Everything so far is old: the baseline run audits it all.
    await db().$executeRaw`UPDATE "LedgerEntry" SET "createdAt" = ${new Date(longAgo.getTime() - 24 * 3600_000)}`;
    await db().$executeRaw`UPDATE "User" SET "updatedAt" = ${new Date(longAgo.getTime() - 24 * 3600_000)}`;
    const quiet = await user();
    await tamper(quiet.id, '7'); // broken long ago, outside any ledger entry: only an audit sees it
    await db().reconciliationRun.deleteMany();
    const baseline = await runReconciliation(deps(), { scope: 'changes', blockWindow: 'all' });
    expect(baseline.scope).toBe('audit');
    expect(baseline.discrepancies.filter((d) => d.ids.userId === quiet.id)).toHaveLength(1);
    await db().reconciliationRun.updateMany({ data: { startedAt: longAgo, discrepancies: [] } });

    // A user who earns a credit and is then tampered with; another user left alone.
    const busy = await user();
    const idle = await user();
    // Another whose balance the application changed without a ledger entry (updatedAt moves).
    const edited = await user();
    await db().user.update({ where: { id: edited.id }, data: { activeBalance: new Prisma.Decimal('9') } });
    await applyLedger(db(), [{ userId: busy.id, account: 'ACTIVE', amount: '5', kind: 'ADMIN_ADJUSTMENT', idempotencyKey: `t-${busy.id}` }]);
    await tamper(busy.id, '50');
    await tamper(idle.id, '3');
    // The quiet and idle ones were last written long ago, as far as the application knows.
    await db().$executeRaw`UPDATE "User" SET "updatedAt" = ${new Date(longAgo.getTime() - 24 * 3600_000)} WHERE "id" IN (${quiet.id}::uuid, ${idle.id}::uuid)`;

    const first = await runReconciliation(deps(), { scope: 'changes', blockWindow: 'all' });
    expect(first.scope).toBe('changes');
    expect(first.since?.getTime()).toBe(longAgo.getTime() - CHANGES_OVERLAP_MS);
    // The ones written since (a ledger entry, an edit) are read; the quiet ones (raw SQL:
    // no ledger entry, no updatedAt) are left to the audit.
    expect(first.checked.users).toBe(2);
    const balances = first.discrepancies.filter((d) => d.check === 'balance-ledger');
    expect(balances).toHaveLength(2);
    expect(balances).toEqual(expect.arrayContaining([
      { check: 'balance-ledger', message: 'The active balance is $50.00 but its ledger sums to $5.00', ids: { userId: busy.id } },
      { check: 'balance-ledger', message: 'The active balance is $9.00 but its ledger sums to $0.00', ids: { userId: edited.id } },
    ]));
    await db().user.update({ where: { id: edited.id }, data: { activeBalance: new Prisma.Decimal('0') } });

    // Nothing new happened to that user: the next run still reports it, then it is fixed.
    const again = await runReconciliation(deps(), { scope: 'changes', blockWindow: 'all' });
    expect(again.discrepancies.map((d) => d.ids.userId)).toContain(busy.id);
    await tamper(busy.id, '5');
    const fixed = await runReconciliation(deps(), { scope: 'changes', blockWindow: 'all' });
    expect(fixed.discrepancies.map((d) => d.ids.userId)).not.toContain(busy.id);

    // The weekly audit reads everyone, in batches of any size, and finds the quiet ones.
    const audit = await reconcile(deps(), { blockWindow: 'all', batchSize: 2 });
    expect(audit.checked.users).toBe(await db().user.count());
    expect(audit.discrepancies.filter((d) => d.check === 'balance-ledger').map((d) => d.ids.userId).sort()).toEqual([quiet.id, idle.id].sort());
    await tamper(quiet.id, '0');
    await tamper(idle.id, '0');
  });

  it('reads a change whose transaction began before a run and committed after it, however long it stayed open', async () => {
    const u = await user();
    await db().reconciliationRun.deleteMany();
    await runReconciliation(deps(), { scope: 'changes', blockWindow: 'all' }); // the first run is an audit
    // Another process's transaction stamps its row when it begins, as every write here does
    // (updatedAt), and commits only after the next run has read.
    const other = new pg.Client({ connectionString: env.config.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      const { rows } = await other.query<{ stamp: Date }>(`UPDATE "User" SET "activeBalance" = 42, "updatedAt" = now() WHERE "id" = $1 RETURNING "updatedAt" AS stamp`, [u.id]);
      await waitFor('the clock to pass the stamp', async () => Date.now() > rows[0]!.stamp.getTime() + 2);
      // No overlap: what this test proves must not lean on it (it stands for a transaction
      // open longer than CHANGES_OVERLAP_MS).
      const during = await runReconciliation(deps(), { scope: 'changes', blockWindow: 'all', overlapMs: 0 });
      expect(during.discrepancies.filter((d) => d.ids.userId === u.id)).toEqual([]);
      await other.query('COMMIT');
      const after = await runReconciliation(deps(), { scope: 'changes', blockWindow: 'all', overlapMs: 0 });
      expect(after.discrepancies.filter((d) => d.ids.userId === u.id)).toEqual([
        { check: 'balance-ledger', message: 'The active balance is $42.00 but its ledger sums to $0.00', ids: { userId: u.id } },
      ]);
    } finally {
      await other.end();
      await tamper(u.id, '0');
    }
  });

  it('checks a cashout and an order through the ledger entries that name them', async () => {
    const u = await user();
    const cashout = await db().cashoutRequest.create({ data: { userId: u.id, wallet: `0x${'2'.repeat(40)}`, amountUsd: new Prisma.Decimal('25') } });
    // Its entry names it; the amount is wrong (a cashout of 25 took 20).
    await applyLedger(db(), [
      { userId: u.id, account: 'ACTIVE', amount: '20', kind: 'ADMIN_ADJUSTMENT', idempotencyKey: `c-in-${cashout.id}` },
      { userId: u.id, account: 'ACTIVE', amount: '-20', kind: 'CASHOUT', reference: `cashout:${cashout.id}`, idempotencyKey: `c-out-${cashout.id}` },
    ]);
    expect((await db().ledgerEntry.findFirstOrThrow({ where: { idempotencyKey: `c-out-${cashout.id}` } })).cashoutId).toBe(cashout.id);
    await db().$executeRaw`UPDATE "CashoutRequest" SET "updatedAt" = ${longAgo} WHERE "id" = ${cashout.id}::uuid`;
    await db().reconciliationRun.updateMany({ data: { startedAt: new Date(Date.now() - 60_000), discrepancies: [] } });
    const run = await runReconciliation(deps(), { scope: 'changes', blockWindow: 'all' });
    expect(run.discrepancies.filter((d) => d.ids.cashoutId === cashout.id)).toEqual([
      { check: 'cashout-ledger', message: 'The cashout of $25.00 (REQUESTED) has ledger entries summing to $-20.00', ids: { cashoutId: cashout.id } },
    ]);
    await db().ledgerEntry.deleteMany({ where: { userId: u.id } });
    await db().cashoutRequest.delete({ where: { id: cashout.id } });
  });

  it("an order's daily credit does not make it a subject again; a referral reward on it does", async () => {
    const u = await user();
    const order = await db().order.create({ data: { userId: u.id, status: 'EXPIRED', itemsPrice: new Prisma.Decimal('10'), totalPrice: new Prisma.Decimal('10'), updatedAt: longAgo } });
    await applyLedger(db(), [{ userId: u.id, account: 'ACTIVE', amount: '1', kind: 'DAILY_CREDIT', reference: `order:${order.id}`, idempotencyKey: `d-${order.id}` }]);
    // Just before the entry, by its own stamp: a clock read here may fall in the entry's millisecond, or past it.
    const entry = await db().ledgerEntry.findFirstOrThrow({ where: { idempotencyKey: `d-${order.id}` } });
    const since = new Date(entry.createdAt.getTime() - 1);
    const credited = await reconcile(deps(), { since, blockWindow: 'all' });
    expect(credited.checked.users).toBe(1);
    expect(credited.checked.orders).toBe(0);
    // A reward on an order that is not PAID: the run reads the order through the entry.
    await applyLedger(db(), [{ userId: u.id, account: 'ACTIVE', amount: '2', kind: 'REFERRAL_REWARD', reference: `order:${order.id}`, idempotencyKey: `r-${order.id}` }]);
    const rewarded = await reconcile(deps(), { since, blockWindow: 'all' });
    expect(rewarded.checked.orders).toBe(1);
    expect(rewarded.discrepancies.filter((d) => d.ids.orderId === order.id).map((d) => d.check)).toEqual(['referral-reward']);
    await db().ledgerEntry.deleteMany({ where: { userId: u.id } });
    await db().order.delete({ where: { id: order.id } });
    await db().user.update({ where: { id: u.id }, data: { activeBalance: new Prisma.Decimal(0) } });
  });
});
