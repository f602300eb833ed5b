import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haltFollowing, reconcile, resumeIndexer, runDepositSweeper, runReconciliation } from '@shop/core';
import type { Address } from 'viem';
import { depositFactoryAbi } from '../../../core/src/deposits/abi.ts';
import { depositSalt } from '../../../core/src/deposits/addresses.ts';
import { DEV_SWEEPER_PRIVATE_KEY } from '../../../scripts/lib/dev-chain.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { deployBatchSender } from '../testing/batch-sender.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * ETH that reaches an order's deposit address unseen (through a contract, after its watch
 * ended), around sweeps: a stranger's flush before it, the shop's own sweep just after it.
 * Each time all of it is recorded as the order's inflow, nothing netted against deposits
 * already moved, and the books are clean (found by a second hostile review).
 */
const exchange = ANVIL_ACCOUNTS[4];
const stranger = ANVIL_ACCOUNTS[6];
const DAY = 24 * 3600_000;

let kit: PaymentKit;
let buyer: TestUser;
let batch: Awaited<ReturnType<typeof deployBatchSender>>;

beforeAll(async () => {
  kit = await createPaymentKit({ env: { SWEEPER_PRIVATE_KEY: DEV_SWEEPER_PRIVATE_KEY } });
  buyer = await kit.createUser({ name: 'Buyer' });
  batch = await deployBatchSender(kit, exchange);
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.close();
});

/** A PAID order whose deposit R is recorded unswept, its window moved two days back (its watch is over). */
async function paidOldOrder() {
  const order = await kit.placeOrder(buyer);
  await kit.chain.sendAndWait(exchange, order.depositAddress, order.amountWei);
  await kit.runIndexer();
  await kit.waitForStatus(order.id, 'PAID');
  await kit.db.order.update({ where: { id: order.id }, data: { paymentDeadline: new Date(Date.now() - 2 * DAY) } });
  return order;
}

/** What the reconciler says about an address (or a sweep) now. */
const findingsOn = async (...ids: string[]) =>
  (await reconcile(kit.workerRuntime, { blockWindow: 'all' })).discrepancies.filter((d) => Object.values(d.ids ?? {}).some((v) => ids.includes(v)));

const inflowsAt = async (address: string) =>
  (await kit.db.payment.findMany({ where: { depositAddress: address, source: 'INFLOW' } })).reduce((s, p) => s + BigInt(p.amount?.toFixed(0) ?? '0'), 0n);

describe('deposits nobody saw, around sweeps', () => {
  it("a stranger's flush, then a larger deposit through a contract: the stranger's sweep is recorded and all of the new ETH is the order's inflow", async () => {
    const order = await paidOldOrder();
    const r = order.amountWei;
    // Anyone may sweep: the stranger flushes R to the receiving address.
    const swept = await kit.chain.wallet.writeContract({
      account: stranger, address: kit.env.config.depositFactoryAddress as Address, abi: depositFactoryAbi, functionName: 'sweep',
      args: [[depositSalt(order.id)]], chain: null, gas: 300_000n,
    });
    await kit.chain.wallet.waitForTransactionReceipt({ hash: swept, pollingInterval: 50 });
    // Before any sweeper run, an exchange's batched withdrawal of E = 2R reaches the (unwatched) address.
    const e = 2n * r;
    await batch([order.depositAddress], [e]);
    await kit.runIndexer();
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(e);
    for (let i = 0; i < 3; i++) {
      await runDepositSweeper(kit.workerRuntime);
      await kit.chain.mine(3);
      await kit.runIndexer();
    }
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress }), 'the shop swept it').toBe(0n);
    const report = await reconcile(kit.workerRuntime, { blockWindow: 'all' });
    const named = report.discrepancies.filter((d) => Object.values(d.ids ?? {}).includes(order.depositAddress) || Object.values(d.ids ?? {}).includes(swept.toLowerCase()));
    // E reached the order's address unrecorded: all of it is the order's inflow to refund.
    expect(
      { inflow: await inflowsAt(order.depositAddress), strangersSweepRecorded: (await kit.db.depositSweep.count({ where: { txHash: swept.toLowerCase() } })) > 0, alarms: named.length > 0 },
      'E recorded in full, or the stranger sweep adopted, or the reconciler says something',
    ).toEqual({ inflow: e, strangersSweepRecorded: true, alarms: false });
  });

  it("a deposit through a contract mined just before the shop's own sweep: moved by it, and recorded as the order's inflow swept by it", async () => {
    const order = await paidOldOrder();
    const e = order.amountWei;
    await kit.chain.setAutomine(false);
    let sent: Awaited<ReturnType<typeof runDepositSweeper>>;
    try {
      sent = await runDepositSweeper(kit.workerRuntime); // reads 'latest': no surplus, sends the sweep
      expect(sent.state).toBe('sent');
      // The contract deposit lands ahead of the sweep in the same block (a higher tip).
      await batch([order.depositAddress], [e], { wait: false, maxPriorityFeePerGas: 200n * 10n ** 9n, maxFeePerGas: 300n * 10n ** 9n });
      await kit.chain.mine(1);
    } finally {
      await kit.chain.setAutomine(true);
    }
    await kit.chain.mine(3);
    await kit.runIndexer();
    for (let i = 0; i < 3; i++) {
      await runDepositSweeper(kit.workerRuntime);
      await kit.chain.mine(2);
      await kit.runIndexer();
    }
    const sweep = await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: sent.sent!.txHash.toLowerCase() }, include: { items: true } });
    expect(sweep.status).toBe('CONFIRMED');
    expect(sweep.items[0]?.sweptWei?.toFixed(0), 'the sweep moved R + E').toBe((2n * e).toString());
    const report = await reconcile(kit.workerRuntime, { blockWindow: 'all' });
    const checks = report.discrepancies.filter((d) => Object.values(d.ids ?? {}).includes(order.depositAddress)).map((d) => d.check);
    expect({ inflow: await inflowsAt(order.depositAddress), checks }, 'E is recorded as the order inflow').toEqual({ inflow: e, checks: [] });
  });
});

describe('an address holding a little more than its deposits', () => {
  it('1 wei (below the recording floor) through a contract to an address whose watch ended, beside its unswept deposit: the address is swept all the same, and the wei recorded as the order inflow', async () => {
    const order = await paidOldOrder();
    await batch([order.depositAddress], [1n]);
    await kit.runIndexer();
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(order.amountWei + 1n);
    for (let i = 0; i < 3; i++) {
      await runDepositSweeper(kit.workerRuntime);
      await kit.chain.mine(2);
      await kit.runIndexer();
    }
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress }), 'the shop swept it').toBe(0n);
    expect({ inflow: await inflowsAt(order.depositAddress), findings: await findingsOn(order.depositAddress) }).toEqual({ inflow: 1n, findings: [] });
  });
});

describe('a sweep is confirmed only once the indexer has passed its block', () => {
  it("a top-up flushed by a stranger's sweep before the indexer saw either: while the indexer lags, then while it is halted, the sweep waits and says why; then it marks the top-up swept, none of it an inflow", async () => {
    const order = await kit.placeOrder(buyer);
    await kit.chain.sendAndWait(exchange, order.depositAddress, order.amountWei);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    // The indexer falls behind: a top-up, then a stranger's sweep moving it with the deposit.
    const topUp = 3n * 10n ** 15n;
    const hash = await kit.chain.sendAndWait(exchange, order.depositAddress, topUp);
    const swept = await kit.chain.wallet.writeContract({
      account: stranger, address: kit.env.config.depositFactoryAddress as Address, abi: depositFactoryAbi, functionName: 'sweep',
      args: [[depositSalt(order.id)]], chain: null, gas: 300_000n,
    });
    const mined = await kit.chain.wallet.waitForTransactionReceipt({ hash: swept, pollingInterval: 50 });
    await kit.chain.mine(2);
    for (let i = 0; i < 2; i++) await runDepositSweeper(kit.workerRuntime); // found on chain, then followed
    const waiting = await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: swept.toLowerCase() } });
    expect(waiting.status, 'not confirmed ahead of the indexer').toBe('SENT');
    expect(waiting.reason).toContain(`Mined in block ${mined.blockNumber}: confirmed once the indexer has passed it`);
    expect(await inflowsAt(order.depositAddress)).toBe(0n);

    // The indexer catches up (the top-up counts toward its paid order), then halts: still nothing is confirmed.
    await kit.runIndexer();
    await waitFor('the top-up settled', async () => (await kit.db.payment.findFirst({ where: { txHash: hash.toLowerCase(), status: 'COUNTED' } })) !== null);
    await haltFollowing(kit.workerRuntime, 'a test halts it');
    try {
      await runDepositSweeper(kit.workerRuntime);
      const halted = await kit.db.depositSweep.findUniqueOrThrow({ where: { id: waiting.id } });
      expect(halted.status).toBe('SENT');
      expect(halted.reason).toContain('confirmed once the indexer runs again');
    } finally {
      await resumeIndexer(kit.db, kit.env.config.chainId);
    }
    await runDepositSweeper(kit.workerRuntime);
    const sweep = await kit.db.depositSweep.findUniqueOrThrow({ where: { id: waiting.id }, include: { payments: true } });
    expect(sweep.status).toBe('CONFIRMED');
    expect(sweep.payments.map((p) => p.txHash), 'the top-up is marked swept by the sweep that moved it').toContain(hash.toLowerCase());
    expect({ inflow: await inflowsAt(order.depositAddress), findings: await findingsOn(order.depositAddress, sweep.id) }).toEqual({ inflow: 0n, findings: [] });
  });
});

describe('refunding an inflow at a deposit address', () => {
  it("waits while the reconciler's latest run names the address short of its books, and goes ahead once a run finds them agree", async () => {
    const order = await paidOldOrder();
    const e = 2n * 10n ** 15n;
    await batch([order.depositAddress], [e]); // through a contract, after the watch ended: unseen by the indexer
    await kit.runIndexer();
    const run = await runReconciliation(kit.workerRuntime, { blockWindow: 'all' });
    expect(run.discrepancies.filter((d) => d.ids.address === order.depositAddress).map((d) => d.check)).toEqual(['deposit-unrecorded']);
    await runDepositSweeper(kit.workerRuntime); // records it as the order's inflow
    const inflow = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: order.depositAddress, source: 'INFLOW' } });
    // A run that finds less at the address than its books (what ETH recorded twice looks
    // like; set by hand here), then the balance back as it was: the run's finding holds the
    // refund until a run finds the books agree.
    const held = await kit.chain.wallet.getBalance({ address: order.depositAddress });
    await kit.chain.test.setBalance({ address: order.depositAddress, value: held - 1n });
    await kit.chain.mine(1);
    await kit.runIndexer();
    const short = await runReconciliation(kit.workerRuntime, { blockWindow: 'all' });
    expect(short.discrepancies.filter((d) => d.ids.address === order.depositAddress).map((d) => d.check)).toEqual(['deposit-missing']);
    await kit.chain.test.setBalance({ address: order.depositAddress, value: held });
    await kit.chain.mine(1);
    await kit.runIndexer();
    const admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    const refund = async () => (await kit.as(admin)).post(`/api/admin/payments/${inflow.id}/refund`).send({ wallet: ANVIL_ACCOUNTS[7] });
    const refused = await refund();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/reconciler/);
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: inflow.id } })).status).toBe('UNRESOLVED');
    await runReconciliation(kit.workerRuntime, { blockWindow: 'all' });
    expect((await refund()).status).toBe(201);
    for (let i = 0; i < 2; i++) await runDepositSweeper(kit.workerRuntime);
    expect(await findingsOn(order.depositAddress)).toEqual([]);
  });
});
