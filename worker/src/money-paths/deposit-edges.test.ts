import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireOrders, LONG_AFTER_WINDOW, MICRO_ETH_WEI, Prisma, reconcile, runDepositSweeper } from '@shop/core';
import type { Address, Hash, Hex } from 'viem';
import { depositFactoryAbi } from '../../../core/src/deposits/abi.ts';
import { depositSalt } from '../../../core/src/deposits/addresses.ts';
import { DEV_SWEEPER_PRIVATE_KEY } from '../../../scripts/lib/dev-chain.ts';
import { REPO_ROOT } from '../../../scripts/lib/paths.ts';
import { compileSolidity } from '../../../scripts/lib/solidity.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { deployBatchSender } from '../testing/batch-sender.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Deposit addresses at the edges a hostile review found: an order long expired, ETH that
 * arrives through a contract after an address's watch ended, a deposit hidden behind a
 * sweep of the same size in one block, a deposit made in the very transaction of the
 * flush that moves it.
 */
const exchange = ANVIL_ACCOUNTS[4];
const stranger = ANVIL_ACCOUNTS[6];
const FINNEY = 10n ** 15n;
const DAY = 24 * 3600_000;
const roundOf = (amountWei: bigint) => amountWei - (amountWei % MICRO_ETH_WEI);

let kit: PaymentKit;
let buyer: TestUser;
let batch: Awaited<ReturnType<typeof deployBatchSender>>;

beforeAll(async () => {
  // The shop sweeps, as npm start's does (anvil's account #8 pays the gas).
  kit = await createPaymentKit({ env: { SWEEPER_PRIVATE_KEY: DEV_SWEEPER_PRIVATE_KEY } });
  buyer = await kit.createUser({ name: 'Buyer' });
  batch = await deployBatchSender(kit, exchange);
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.close();
});

/** Moves an expired order's window and quotes `days` into the past, as if that time had passed. */
async function ageOrder(orderId: string, days: number) {
  const at = new Date(Date.now() - days * DAY);
  await kit.db.paymentQuote.updateMany({ where: { orderId }, data: { createdAt: at, expiresAt: at } });
  await kit.db.order.update({ where: { id: orderId }, data: { createdAt: at, paymentDeadline: at } });
}

async function expiredOrder(daysAgo: number) {
  const order = await kit.placeOrder(buyer);
  await kit.lapse(order.id, { window: true });
  await expireOrders(kit.db, kit.env.config);
  expect(await kit.orderStatus(order.id)).toBe('EXPIRED');
  await ageOrder(order.id, daysAgo);
  await expireOrders(kit.db, kit.env.config); // frees its tag: the monitoring window is over
  return order;
}

/** A contract that deposits to an address and sweeps it in one call (anyone knows their own order's salt). */
async function depositThenSweep() {
  const { abi, bytecode } = await compileSolidity(path.join(REPO_ROOT, 'scripts/testing/deposit-then-sweep.sol'), 'DepositThenSweep');
  const deployed = await kit.chain.wallet.deployContract({ abi, bytecode: bytecode as Hex, account: stranger, chain: null });
  const contract = (await kit.chain.wallet.waitForTransactionReceipt({ hash: deployed, pollingInterval: 50 })).contractAddress as Address;
  return { abi, contract };
}

const inflowsAt = (address: string) => kit.db.payment.findMany({ where: { depositAddress: address, source: 'INFLOW' } });

describe('deposit addresses at the edges', () => {
  it('a deposit to an order that expired ten days ago (tag freed, package repriced) never pays it at the old price: kept LATE for an admin', async () => {
    const order = await expiredOrder(10);
    expect((await kit.db.order.findUniqueOrThrow({ where: { id: order.id } })).paymentTag).toBeNull();
    // The shop has since repriced the package: $25 -> $100.
    await kit.db.product.update({ where: { id: kit.product.id }, data: { price: new Prisma.Decimal('100.00') } });
    try {
      const hash = await kit.chain.sendAndWait(exchange, order.depositAddress, roundOf(order.amountWei));
      await kit.runIndexer();
      const p = await waitFor('the deposit settled', async () => {
        const row = await kit.db.payment.findFirst({ where: { txHash: hash.toLowerCase(), depositAddress: order.depositAddress } });
        return row && row.status !== 'PENDING' ? row : null;
      });
      // DESIGN 5: a late transfer pays its order only within 24 hours; after that an admin resolves it.
      expect(p).toMatchObject({ status: 'LATE', orderId: order.id, reason: LONG_AFTER_WINDOW });
      expect(await kit.orderStatus(order.id)).not.toBe('PAID');
    } finally {
      await kit.db.product.update({ where: { id: kit.product.id }, data: { price: new Prisma.Decimal('25.00') } });
    }
  });

  it("an exchange's batched withdrawal to an order's address after its watch ended: the reconciler names the address, the sweeper's run records it as the order's inflow, refundable, and sweeps it", async () => {
    const order = await expiredOrder(2); // paymentDeadline two days ago: no longer watched
    const value = 10n * FINNEY;
    await batch([order.depositAddress], [value]);
    await kit.runIndexer();
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(value);
    expect(await kit.db.payment.count({ where: { depositAddress: order.depositAddress } })).toBe(0);
    const report = await reconcile(kit.workerRuntime, { blockWindow: 'all' });
    const named = report.discrepancies.filter((d) => Object.values(d.ids ?? {}).includes(order.depositAddress));
    expect(named.map((d) => d.check), 'the reconciler names the deposit address holding unrecorded ETH').toEqual(['deposit-unrecorded']);
    // The sweeper's next run finds it by the address's balance and records it as the order's inflow.
    await runDepositSweeper(kit.workerRuntime);
    const inflow = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: order.depositAddress } });
    expect(inflow).toMatchObject({ source: 'INFLOW', status: 'UNRESOLVED', orderId: order.id });
    expect(inflow.amount?.toFixed(0)).toBe(value.toString());
    expect(inflow.reason).toMatch(/after its watch ended/);
    const again = await reconcile(kit.workerRuntime, { blockWindow: 'all' });
    expect(again.discrepancies.filter((d) => Object.values(d.ids ?? {}).includes(order.depositAddress))).toEqual([]);
    // The next run records nothing more and sends the sweep (mined at once); while it is on
    // its way the inflow is not refunded (the books there cannot be read); once it is
    // confirmed, an admin refunds it to a wallet they name.
    await runDepositSweeper(kit.workerRuntime);
    expect(await kit.db.payment.count({ where: { depositAddress: order.depositAddress } })).toBe(1);
    const admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    const refund = async () => (await kit.as(admin)).post(`/api/admin/payments/${inflow.id}/refund`).send({ wallet: ANVIL_ACCOUNTS[7] });
    const moving = await refund();
    expect([moving.status, moving.body.message]).toEqual([409, expect.stringMatching(/a sweep of it is on its way/)]);
    await kit.runIndexer();
    await runDepositSweeper(kit.workerRuntime); // confirms it, the indexer having passed its block
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(0n);
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: inflow.id } })).sweepId).not.toBeNull();
    // A stranger forces 1 wei into the address where nothing records it (a selfdestruct): a
    // surplus cannot make the refunded ETH count twice, so it holds up no refund.
    await kit.chain.test.setBalance({ address: order.depositAddress, value: 1n });
    await kit.chain.mine(1);
    await kit.runIndexer();
    expect((await refund()).status).toBe(201);
    // Taken away again, so that this file's books close as they would without the stranger.
    await kit.chain.test.setBalance({ address: order.depositAddress, value: 0n });
  });

  it('an internal deposit in the same block as a sweep of the same amount is recorded', async () => {
    const order = await kit.placeOrder(buyer);
    const first = await kit.chain.sendAndWait(exchange, order.depositAddress, roundOf(order.amountWei));
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    const x = roundOf(order.amountWei);
    await kit.chain.setAutomine(false);
    let second: Hash;
    try {
      // Anyone who knows the salt may sweep (here a stranger; the shop's own sweeper does the same).
      await kit.chain.wallet.writeContract({
        account: stranger, address: kit.env.config.depositFactoryAddress as Address, abi: depositFactoryAbi, functionName: 'sweep',
        args: [[depositSalt(order.id)]], chain: null, gas: 300_000n, maxPriorityFeePerGas: 50n * 10n ** 9n, maxFeePerGas: 200n * 10n ** 9n,
      });
      // The buyer's second withdrawal of the same round amount lands after it, in the same block.
      second = await batch([order.depositAddress], [x], { wait: false, maxPriorityFeePerGas: 10n ** 9n });
      await kit.chain.mine(1);
    } finally {
      await kit.chain.setAutomine(true);
    }
    const receipt = await kit.chain.wallet.waitForTransactionReceipt({ hash: second, pollingInterval: 50 });
    expect(receipt.status).toBe('success');
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(x);
    await kit.runIndexer();
    expect(await kit.db.payment.count({ where: { txHash: first.toLowerCase() } })).toBe(1);
    expect(await kit.db.payment.count({ where: { txHash: second.toLowerCase(), depositAddress: order.depositAddress } }), 'the second deposit is recorded').toBe(1);
  });

  it('a deposit made in the same transaction as the flush that moves it is marked swept by it', async () => {
    const { abi, contract } = await depositThenSweep();
    const order = await kit.placeOrder(buyer, 2); // $50
    await kit.chain.sendAndWait(exchange, order.depositAddress, 5n * FINNEY); // $15: UNDERPAID
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'UNDERPAID');
    const rest = 15n * FINNEY; // $45
    const hash = await kit.chain.wallet.writeContract({
      account: stranger, address: contract, abi, functionName: 'go', args: [order.depositAddress, kit.env.config.depositFactoryAddress, depositSalt(order.id)], value: rest, chain: null,
    });
    await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(0n);
    // The sweeper finds the flush and follows it to CONFIRMED.
    await runDepositSweeper(kit.workerRuntime);
    await runDepositSweeper(kit.workerRuntime);
    const sweep = await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: hash.toLowerCase() } });
    expect(sweep.status).toBe('CONFIRMED');
    const unswept = await kit.db.payment.findMany({ where: { depositAddress: order.depositAddress, sweepId: null, status: { not: 'REJECTED' } } });
    expect(unswept.map((p) => p.txHash), 'every deposit the flush moved is marked swept').toEqual([]);
  });
});

describe('a deposit, its sweep and a top-up in one transaction', () => {
  it("a buyer's contract deposits, sweeps and sends 1 wei more: the deposit of the sum is counted once, none of it becomes a refundable inflow, and the books agree", async () => {
    const { abi, contract } = await depositThenSweep();
    const order = await kit.placeOrder(buyer, 2); // $50
    await kit.chain.sendAndWait(exchange, order.depositAddress, 5n * FINNEY); // $15: UNDERPAID
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'UNDERPAID');
    const rest = 15n * FINNEY; // $45: the order's rest, then 1 wei after the sweep
    const hash = await kit.chain.wallet.writeContract({
      account: stranger, address: contract, abi, functionName: 'goThenTopUp', args: [order.depositAddress, kit.env.config.depositFactoryAddress, depositSalt(order.id), 1n], value: rest + 1n, chain: null,
    });
    await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    // The shop sees one deposit of the sum (one row per transaction and address); the flush moved all but the last wei.
    const deposit = await kit.db.payment.findFirstOrThrow({ where: { txHash: hash.toLowerCase(), depositAddress: order.depositAddress } });
    expect(deposit).toMatchObject({ status: 'COUNTED', orderId: order.id });
    expect(deposit.amount?.toFixed(0)).toBe((rest + 1n).toString());
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(1n);

    // The sweeper finds the flush, follows it to CONFIRMED: it moved 5 finney and all of the deposit but its last wei.
    for (let i = 0; i < 3; i++) {
      await runDepositSweeper(kit.workerRuntime);
      await kit.chain.mine(1);
      await kit.runIndexer();
    }
    const sweep = await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: hash.toLowerCase() }, include: { items: true } });
    expect(sweep.status).toBe('CONFIRMED');
    expect(sweep.items[0]?.sweptWei?.toFixed(0)).toBe((5n * FINNEY + rest).toString());
    expect((await inflowsAt(order.depositAddress)).map((p) => [p.status, p.amount?.toFixed(0)]), 'nothing of the counted deposit is refundable').toEqual([]);
    // The deposit stays unswept for its last wei, still at the address (dust: left there).
    const after = await kit.db.payment.findUniqueOrThrow({ where: { id: deposit.id } });
    expect({ sweepId: after.sweepId, flushedEarly: after.flushedEarly.toFixed(0) }).toEqual({ sweepId: null, flushedEarly: rest.toString() });
    const report = await reconcile(kit.workerRuntime, { blockWindow: 'all' });
    expect(report.discrepancies.filter((d) => Object.values(d.ids ?? {}).includes(order.depositAddress) || d.ids?.sweepId === sweep.id)).toEqual([]);
  });

  it('the same with a large top-up after the flush: the shop sweeps the rest later, and that sweep marks the deposit', async () => {
    const { abi, contract } = await depositThenSweep();
    const order = await kit.placeOrder(buyer);
    const first = 5n * FINNEY;
    const later = 8n * FINNEY;
    const hash = await kit.chain.wallet.writeContract({
      account: stranger, address: contract, abi, functionName: 'goThenTopUp', args: [order.depositAddress, kit.env.config.depositFactoryAddress, depositSalt(order.id), later], value: first + later, chain: null,
    });
    await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(later);
    for (let i = 0; i < 4; i++) {
      await runDepositSweeper(kit.workerRuntime);
      await kit.chain.mine(1);
      await kit.runIndexer();
    }
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress }), 'the rest is swept').toBe(0n);
    const found = await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: hash.toLowerCase() }, include: { items: true } });
    const deposit = await kit.db.payment.findFirstOrThrow({ where: { txHash: hash.toLowerCase(), depositAddress: order.depositAddress }, include: { sweep: { include: { items: true } } } });
    expect(found.items.map((i) => i.sweptWei?.toFixed(0))).toEqual([first.toString()]);
    expect(deposit.sweep?.id).not.toBe(found.id);
    expect({ status: deposit.sweep?.status, swept: deposit.sweep?.items.map((i) => i.sweptWei?.toFixed(0)) }).toEqual({ status: 'CONFIRMED', swept: [later.toString()] });
    expect(await inflowsAt(order.depositAddress)).toEqual([]);
    const report = await reconcile(kit.workerRuntime, { blockWindow: 'all' });
    expect(report.discrepancies.filter((d) => Object.values(d.ids ?? {}).includes(order.depositAddress))).toEqual([]);
  });
});

describe('a confirmed sweep that a reorganization removes', () => {
  it('goes back to being followed: its deposits are unswept again, the ETH is back at the address, and a new sweep moves it once', async () => {
    const order = await kit.placeOrder(buyer);
    const value = roundOf(order.amountWei);
    await kit.chain.sendAndWait(exchange, order.depositAddress, value);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    await kit.chain.mine(2);
    await kit.runIndexer();
    await runDepositSweeper(kit.workerRuntime); // sends the sweep (mined at once)
    await kit.runIndexer();
    await runDepositSweeper(kit.workerRuntime); // confirms it, the indexer having passed its block
    const sweep = await kit.db.depositSweep.findFirstOrThrow({ where: { items: { some: { address: order.depositAddress } } } });
    expect(sweep.status).toBe('CONFIRMED');
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(0n);

    await kit.chain.reorg(1); // the sweep's block is replaced by one without it
    await kit.runIndexer();
    await runDepositSweeper(kit.workerRuntime);
    const reopened = await kit.db.depositSweep.findUniqueOrThrow({ where: { id: sweep.id } });
    expect(reopened).toMatchObject({ status: 'SENT', reason: 'Its block left the chain in a reorganization; followed again', sweptWei: null });
    expect(await kit.db.payment.count({ where: { depositAddress: order.depositAddress, sweepId: null, status: 'COUNTED' } })).toBe(1);
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(value);

    // Not seen again by the node: lost after a while; the next sweep takes its nonce and moves the deposit once.
    await kit.db.depositSweep.update({ where: { id: sweep.id }, data: { createdAt: new Date(Date.now() - 10 * 60_000) } });
    for (let i = 0; i < 3; i++) {
      await runDepositSweeper(kit.workerRuntime);
      await kit.runIndexer();
    }
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(0n);
    const marked = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: order.depositAddress, status: 'COUNTED' }, include: { sweep: true } });
    expect(marked.sweep?.status).toBe('CONFIRMED');
    expect(marked.sweep?.sweptWei?.toFixed(0)).toBe(value.toString());
  });
});
