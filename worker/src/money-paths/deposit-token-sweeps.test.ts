import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIds, jobs, Prisma, readSweeperStatus, recoverDepositToken, type SweepRun } from '@shop/core';
import { numberToHex, parseAbi, parseGwei, parseUnits, type Address, type Hash } from 'viem';
import { MULTICALL3_ADDRESS } from '../../../core/src/chain/multicall3.ts';
import { tokenBySymbol, type TokenSymbol } from '../../../core/src/contract/tokens.ts';
import { balanceOfAbi, quietTransferAbi } from '../../../core/src/rails/erc20/abi.ts';
import { depositFactoryAbi } from '../../../core/src/deposits/abi.ts';
import { depositSalt } from '../../../core/src/deposits/addresses.ts';
import { readCandidates } from '../../../core/src/deposit-sweeper/sweeper-candidates.ts';
import { reconcile } from '../../../core/src/reconcile/reconcile.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { TOKEN_MOCK_OWNER } from '../../../scripts/lib/token-mocks.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Sweeping tokens from deposit addresses (core/src/deposit-sweeper/token-sweeps.ts): the
 * accepted tokens held at settled orders' deposit addresses go on to the receiving address
 * in one transaction of the gas wallet, the factory's recoverToken(salt, token) for each
 * address and token batched through Multicall3, under the ETH sweeps' fee ceiling and gas
 * budget; followed to CONFIRMED by the tokens' own Transfer logs, and only then are the
 * token payments marked swept. The token payments are recorded here as the indexer records
 * them (a Transfer of the token to the order's deposit address, its log's index, the
 * amount in 6-decimal units), unless the indexer recorded it already.
 */
/** Anvil's dev account #8: the gas wallet, signed here (SWEEPER_PRIVATE_KEY). */
const SWEEPER_KEY = '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97';
const sweeper = ANVIL_ACCOUNTS[8].toLowerCase();
const exchange = ANVIL_ACCOUNTS[4];
const stranger = ANVIL_ACCOUNTS[6];
const FINNEY = 10n ** 15n;

let kit: PaymentKit;
let buyer: TestUser;
let other: TestUser;

beforeAll(async () => {
  kit = await createPaymentKit({ env: { SWEEPER_PRIVATE_KEY: SWEEPER_KEY, ACCEPTED_ASSETS: 'ETH,USDC,USDT' } });
  buyer = await kit.createUser({ name: 'Buyer' });
  other = await kit.createUser({ name: 'Other' });
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.close();
});

const tokenBalance = (symbol: TokenSymbol, owner: Address) => kit.chain.wallet.readContract({ address: tokenBySymbol(symbol).address, abi: balanceOfAbi, functionName: 'balanceOf', args: [owner] });

/** One run of the worker's deposit-sweep job (after an indexer pass, as in deposit-sweeps.test.ts). */
async function sweepNow(): Promise<SweepRun> {
  await kit.runIndexer();
  await jobs.sweepDeposits(kit.workerRuntime.queues);
  return waitFor('the deposit-sweep job', async () => {
    const job = await kit.workerRuntime.queues['deposit-sweep'].getJob(jobIds.depositSweep);
    const state = await job?.getState();
    if (state === 'failed') throw new Error(`the deposit-sweep job failed: ${job?.failedReason}`);
    return state === 'completed' ? (job?.returnvalue as SweepRun) : null;
  });
}

/** The network's fee from the next block on (anvil suggests 1.2 x base + 1 gwei). */
async function baseFee(gwei: string) {
  await kit.chain.test.request({ method: 'anvil_setNextBlockBaseFeePerGas' as never, params: [numberToHex(parseGwei(gwei))] as never });
  await kit.chain.mine(1);
}

/** An order whose payment window is over (EXPIRED): what reaches its deposit address now is kept LATE for an admin, and the address may be swept. */
async function expiredOrder(user: TestUser) {
  const order = await kit.placeOrder(user);
  await kit.lapse(order.id, { window: true });
  await kit.db.order.update({ where: { id: order.id }, data: { status: 'EXPIRED' } });
  return order;
}

/** `amount` of a token from the exchange's wallet to `to`, recorded as the indexer records a token deposit (LATE on an expired order). */
async function tokenDeposit(order: { id: string; depositAddress: Address }, symbol: TokenSymbol, amount: bigint) {
  const token = tokenBySymbol(symbol);
  const hash = await kit.chain.wallet.writeContract({ account: exchange, address: token.address, abi: quietTransferAbi, functionName: 'transfer', args: [order.depositAddress, amount], chain: null });
  const receipt = await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  await kit.runIndexer();
  const log = receipt.logs.find((l) => l.address.toLowerCase() === token.address.toLowerCase())!;
  const at = { txHash: hash.toLowerCase(), depositAddress: order.depositAddress.toLowerCase(), logIndex: log.logIndex };
  // Accepted, the indexer records it and the worker verifies it (LATE: the order expired): the sweep reads a settled deposit.
  const found = await kit.db.payment.findFirst({ where: at });
  if (found) return waitFor('the token deposit verified', async () => {
    const p = await kit.db.payment.findFirst({ where: at });
    return p && p.status !== 'PENDING' ? p : null;
  });
  return kit.db.payment.create({
    data: {
      ...at,
      asset: symbol,
      orderId: order.id,
      source: 'INDEXED',
      status: 'LATE',
      fromAddress: exchange.toLowerCase(),
      amount: new Prisma.Decimal(amount.toString()),
      usdValue: new Prisma.Decimal(formatUsd(amount)),
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      confirmations: 1,
      reason: 'Arrived after the order expired',
    },
  });
}
const formatUsd = (units: bigint) => `${units / 10n ** 6n}.${(units % 10n ** 6n).toString().padStart(6, '0').slice(0, 2)}`;

async function findings() {
  const report = await reconcile(kit.workerRuntime, { blockWindow: 'all' });
  return report.discrepancies;
}

describe('sweeping tokens from deposit addresses', () => {
  it('sweeps a USDC and a USDT deposit at two deposit addresses in one transaction through Multicall3; confirmed by their Transfer logs, the payments marked, the gas recorded', async () => {
    const first = await expiredOrder(buyer);
    const second = await expiredOrder(other);
    const usdc = await tokenDeposit(first, 'USDC', parseUnits('25', 6));
    const usdt = await tokenDeposit(second, 'USDT', parseUnits('30.5', 6));
    const before = { USDC: await tokenBalance('USDC', kit.receiving), USDT: await tokenBalance('USDT', kit.receiving) };

    const run = await sweepNow();
    expect(run.state).toBe('sent');
    expect(run.reason).toMatch(/Sent token sweep 0x[0-9a-f]{64} of 2 addresses \(25 USDC, 30.5 USDT\)/);
    const sweeps = await kit.db.depositSweep.findMany({ include: { items: true } });
    expect(sweeps).toHaveLength(1);
    const sweep = sweeps[0]!;
    expect(sweep).toMatchObject({ kind: 'TOKENS', status: 'SENT', fromAddress: sweeper });
    expect(sweep.expectedWei.toFixed(0)).toBe('0');
    expect(sweep.items.map((i) => [i.address, i.asset, i.expectedAmount?.toFixed(0), i.expectedWei.toFixed(0)]).sort()).toEqual(
      [
        [first.depositAddress.toLowerCase(), 'USDC', '25000000', '0'],
        [second.depositAddress.toLowerCase(), 'USDT', '30500000', '0'],
      ].sort(),
    );
    const tx = await kit.chain.wallet.getTransaction({ hash: sweep.txHash as Hash });
    expect(tx.to?.toLowerCase()).toBe(MULTICALL3_ADDRESS.toLowerCase());
    expect(tx.value).toBe(0n);

    await sweepNow();
    const receipt = await kit.chain.wallet.getTransactionReceipt({ hash: sweep.txHash as Hash });
    const done = await kit.db.depositSweep.findUniqueOrThrow({ where: { id: sweep.id }, include: { items: true, payments: true } });
    expect(done).toMatchObject({ status: 'CONFIRMED', gasUsed: receipt.gasUsed, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, reason: null });
    expect(done.feeWei?.toFixed(0)).toBe((receipt.gasUsed * receipt.effectiveGasPrice).toString());
    expect(done.sweptWei?.toFixed(0)).toBe('0');
    for (const item of done.items) expect(item.sweptAmount?.toFixed(0)).toBe(item.expectedAmount?.toFixed(0));
    expect(done.payments.map((p) => p.id).sort()).toEqual([usdc.id, usdt.id].sort());
    expect(await tokenBalance('USDC', kit.receiving)).toBe(before.USDC + parseUnits('25', 6));
    expect(await tokenBalance('USDT', kit.receiving)).toBe(before.USDT + parseUnits('30.5', 6));
    expect(await tokenBalance('USDC', first.depositAddress)).toBe(0n);
    expect(await readSweeperStatus(kit.workerRuntime.redis, kit.workerRuntime.config)).toMatchObject({ state: 'idle', reason: null });
    expect(await findings()).toEqual([]);
    // The operator reads it in its tokens on Admin > Payments, never as 0 ETH.
    const admin = await kit.createUser({ name: 'Sweep admin', isAdmin: true });
    const listed = (await (await kit.as(admin)).get('/api/admin/deposits/sweeps')).body.find((s: { _id: string }) => s._id === sweep.id);
    expect(listed).toMatchObject({ kind: 'TOKENS', tokens: '25.00 USDC, 30.50 USDT', items: 2, status: 'CONFIRMED' });
    console.log(`[deposit-token-sweeps] two addresses' tokens swept in one transaction: ${receipt.gasUsed} gas (limit ${done.gasLimit})`);
  });

  it('waits while the network fee is above the ceiling and says why; sweeps the tokens once it falls', async () => {
    const order = await expiredOrder(buyer);
    await tokenDeposit(order, 'USDC', parseUnits('12', 6));
    await baseFee('100');
    const run = await sweepNow();
    expect(run.state).toBe('waiting');
    expect(run.reason).toMatch(/Sweeping waits: the network's fee is 121 gwei, above the ceiling of 30 gwei \(SWEEP_MAX_GAS_PRICE_GWEI\); 1 address holds 12 USDC meanwhile/);
    expect(await kit.db.depositSweep.count({ where: { status: 'SENT' } })).toBe(0);
    await baseFee('1');
    expect((await sweepNow()).state).toBe('sent');
    await sweepNow();
    expect(await kit.db.depositSweepItem.findFirst({ where: { address: order.depositAddress.toLowerCase(), asset: 'USDC', sweep: { status: 'CONFIRMED' } } })).toBeTruthy();
    expect(await tokenBalance('USDC', order.depositAddress)).toBe(0n);
  });

  it('a USDC deposit beside an ETH one: the ETH sweep owes no wei for it, records no unseen ETH, and marks only the ETH deposit; the token sweep marks the USDC one', async () => {
    const order = await expiredOrder(other);
    const usdc = await tokenDeposit(order, 'USDC', parseUnits('40', 6));
    // Its USDC owes no wei: the address is no ETH candidate, and ETH sweeping finds nothing to do.
    const ethCandidates = async () => (await readCandidates(kit.db, 100)).filter((c) => c.address.toLowerCase() === order.depositAddress.toLowerCase());
    expect(await ethCandidates()).toEqual([]);

    // ETH arrives too (kept LATE by the indexer on the expired order).
    const ethHash = await kit.chain.sendAndWait(exchange, order.depositAddress, 10n * FINNEY);
    await kit.runIndexer();
    const eth = await waitFor('the ETH deposit', () => kit.db.payment.findFirst({ where: { txHash: ethHash.toLowerCase(), depositAddress: order.depositAddress.toLowerCase(), status: { not: 'PENDING' } } }));
    expect(eth.asset).toBe('ETH');
    expect((await ethCandidates()).map((c) => c.recordedWei)).toEqual([10n * FINNEY]);

    // The ETH sweep first: a sweep on its way holds its address, so the token sweep of it
    // goes once the ETH one is confirmed; each marks its own asset's deposit only.
    const first = await sweepNow();
    expect(first.sent).toMatchObject({ addresses: 1, expectedWei: (10n * FINNEY).toString() });
    expect(first.tokenSent).toBeUndefined();
    const second = await sweepNow();
    expect(second.tokenSent).toMatchObject({ addresses: 1, expectedWei: '0' });
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: eth.id }, include: { sweep: true } })).sweep).toMatchObject({ kind: 'ETH', status: 'CONFIRMED' });
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: usdc.id } })).sweepId).toBeNull();
    await sweepNow();
    expect(await kit.db.depositSweep.count({ where: { status: 'SENT' } })).toBe(0);
    const marked = await kit.db.payment.findMany({ where: { id: { in: [usdc.id, eth.id] } }, include: { sweep: true } });
    expect(Object.fromEntries(marked.map((p) => [p.asset, p.sweep?.kind]))).toEqual({ ETH: 'ETH', USDC: 'TOKENS' });
    const inflows = await kit.db.payment.count({ where: { depositAddress: order.depositAddress.toLowerCase(), source: 'INFLOW' } });
    expect(inflows).toBe(0);
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(0n);
    expect(await tokenBalance('USDC', order.depositAddress)).toBe(0n);
    expect(await findings()).toEqual([]);
  });

  it('a deposit address the token issuer froze (USDC blocklist) is left out of the batch, saying so; the other addresses are swept', async () => {
    const frozen = await expiredOrder(buyer);
    const free = await expiredOrder(other);
    await tokenDeposit(frozen, 'USDC', parseUnits('15', 6));
    const moving = await tokenDeposit(free, 'USDC', parseUnits('16', 6));
    const usdc = tokenBySymbol('USDC');
    await kit.chain.wallet.waitForTransactionReceipt({
      hash: await kit.chain.wallet.writeContract({ account: TOKEN_MOCK_OWNER, address: usdc.address, abi: parseAbi(['function blacklist(address)']), functionName: 'blacklist', args: [frozen.depositAddress], chain: null }),
      pollingInterval: 50,
    });

    const run = await sweepNow();
    expect(run.tokenSent).toMatchObject({ addresses: 1 });
    expect(run.reason).toMatch(new RegExp(`Sent token sweep 0x[0-9a-f]{64} of 1 address \\(16 USDC\\); 1 token deposit the token refuses to move is left \\(15 USDC at ${frozen.depositAddress.toLowerCase()}\\)`));
    await sweepNow();
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: moving.id }, include: { sweep: true } })).sweep?.status).toBe('CONFIRMED');
    expect(await tokenBalance('USDC', frozen.depositAddress)).toBe(parseUnits('15', 6));
    // Unfrozen, it goes with the next run.
    await kit.chain.wallet.waitForTransactionReceipt({
      hash: await kit.chain.wallet.writeContract({ account: TOKEN_MOCK_OWNER, address: usdc.address, abi: parseAbi(['function unBlacklist(address)']), functionName: 'unBlacklist', args: [frozen.depositAddress], chain: null }),
      pollingInterval: 50,
    });
    expect((await sweepNow()).tokenSent).toMatchObject({ addresses: 1 });
    await sweepNow();
    expect(await tokenBalance('USDC', frozen.depositAddress)).toBe(0n);
  });

  it("adopts a token recovery someone else sent (anyone may call the factory's recoverToken): recorded as a token sweep from the USDC's Transfer log, confirmed, the payment marked, the shop paying no gas; the reconciler finds nothing", async () => {
    const order = await expiredOrder(other);
    const usdc = await tokenDeposit(order, 'USDC', parseUnits('25', 6));
    const factory = kit.workerRuntime.config.depositFactoryAddress as Address;
    const before = await tokenBalance('USDC', kit.receiving);
    const hash = await kit.chain.wallet.writeContract({ account: stranger, address: factory, abi: depositFactoryAbi, functionName: 'recoverToken', args: [depositSalt(order.id), tokenBySymbol('USDC').address], chain: null });
    await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(await tokenBalance('USDC', order.depositAddress)).toBe(0n);
    expect(await tokenBalance('USDC', kit.receiving)).toBe(before + parseUnits('25', 6));

    const run = await sweepNow(); // found by the token's Transfer log and recorded
    expect(run.tokenSent).toBeUndefined();
    await sweepNow(); // followed to CONFIRMED, as a sweep the shop sent
    const found = await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: hash.toLowerCase() }, include: { items: true, payments: true } });
    expect(found).toMatchObject({ kind: 'TOKENS', status: 'CONFIRMED', fromAddress: stranger.toLowerCase(), reason: expect.stringMatching(/^Sent by another account: the shop paid no gas/) });
    expect(found.feeWei?.toFixed(0)).toBe('0');
    expect(found.sweptWei?.toFixed(0)).toBe('0');
    expect(found.items.map((i) => [i.address, i.asset, i.expectedAmount?.toFixed(0), i.sweptAmount?.toFixed(0), i.expectedWei.toFixed(0)])).toEqual([[order.depositAddress.toLowerCase(), 'USDC', '25000000', '25000000', '0']]);
    expect(found.payments.map((p) => p.id)).toEqual([usdc.id]);
    expect(await kit.db.depositSweep.count({ where: { status: 'SENT' } })).toBe(0);
    expect(await findings()).toEqual([]);
  });

  it('a reorganization that removes an adopted token recovery reopens it like any sweep: the payment unswept again, the USDC back at the address', async () => {
    const order = await expiredOrder(buyer);
    const usdc = await tokenDeposit(order, 'USDC', parseUnits('7', 6));
    const factory = kit.workerRuntime.config.depositFactoryAddress as Address;
    const hash = await kit.chain.wallet.writeContract({ account: stranger, address: factory, abi: depositFactoryAbi, functionName: 'recoverToken', args: [depositSalt(order.id), tokenBySymbol('USDC').address], chain: null });
    await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await sweepNow();
    await sweepNow();
    const found = await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: hash.toLowerCase() } });
    expect(found.status).toBe('CONFIRMED');
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: usdc.id } })).sweepId).toBe(found.id);
    expect(await kit.chain.blockNumber()).toBe(found.blockNumber);

    await kit.chain.reorg(1); // the recovery's block is replaced by one without it
    await sweepNow();
    const reopened = await kit.db.depositSweep.findUniqueOrThrow({ where: { id: found.id }, include: { items: true } });
    expect(reopened).toMatchObject({ status: 'SENT', reason: expect.stringMatching(/^Sent by another account: the shop paid no gas\. Its block left the chain in a reorganization; followed again/) });
    expect(reopened.items.map((i) => i.sweptAmount)).toEqual([null]);
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: usdc.id } })).sweepId).toBeNull();
    expect(await tokenBalance('USDC', order.depositAddress)).toBe(parseUnits('7', 6));

    // Never mined again: lost after a while, and the shop's own token sweep moves the USDC once.
    await kit.db.depositSweep.update({ where: { id: found.id }, data: { createdAt: new Date(Date.now() - 10 * 60_000) } });
    for (let i = 0; i < 3; i++) await sweepNow();
    expect(await tokenBalance('USDC', order.depositAddress)).toBe(0n);
    const marked = await kit.db.payment.findUniqueOrThrow({ where: { id: usdc.id }, include: { sweep: true } });
    expect(marked.sweep).toMatchObject({ kind: 'TOKENS', status: 'CONFIRMED', fromAddress: sweeper });
  });

  it("the operator's token recovery refuses an accepted token whose payments at the address the sweeper sweeps (the books would lose them)", async () => {
    const order = await expiredOrder(buyer);
    await tokenDeposit(order, 'USDT', parseUnits('9', 6));
    await expect(recoverDepositToken(kit.workerRuntime, order.id, tokenBySymbol('USDT').address)).rejects.toThrow(
      /^Order \S+ has 9 USDT recorded at its deposit address: USDT is accepted, and the deposit sweeper sweeps it \(its payments marked swept\)$/,
    );
    expect(await tokenBalance('USDT', order.depositAddress)).toBe(parseUnits('9', 6));
  });
});
