import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcile, runDepositSweeper } from '@shop/core';
import type { Address } from 'viem';
import { depositFactoryAbi } from '../../../core/src/deposits/abi.ts';
import { depositSalt } from '../../../core/src/deposits/addresses.ts';
import { DEV_SWEEPER_PRIVATE_KEY } from '../../../scripts/lib/dev-chain.ts';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
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

const inflowsAt = async (address: string) =>
  (await kit.db.payment.findMany({ where: { depositAddress: address, source: 'INFLOW' } })).reduce((s, p) => s + BigInt(p.valueWei?.toFixed(0) ?? '0'), 0n);

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
