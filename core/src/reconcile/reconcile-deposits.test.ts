import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { anvilDriver, ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import { Prisma } from '../infra/db.ts';
import { reconcile, runReconciliation, type Discrepancy } from './reconcile.ts';
import { newReferralCode } from '../accounts/referral-code.ts';
import { tokenBySymbol, type TokenSymbol } from '../contract/tokens.ts';
import { quietTransferAbi } from '../rails/erc20/abi.ts';

/**
 * The reconciler checks the deposit addresses against the chain and the sweeper's records
 * against the deposits they mark. Records are made by hand and ETH moved on anvil; this
 * file breaks the books on purpose, so it uses a bare test env.
 */
let env: TestEnv;
let chain: ReturnType<typeof anvilDriver>;
beforeAll(async () => {
  // The tokens accepted: their balances at the deposit addresses are checked too.
  env = await createTestEnv({ chain: true, env: { ACCEPTED_ASSETS: 'ETH,USDC,USDT' } });
  chain = anvilDriver(env.anvil!.rpcUrl);
});
afterAll(async () => {
  await env?.close();
});

const db = () => env.runtime.db;
const D = (v: bigint | number) => new Prisma.Decimal(v.toString());
const MILLI = 10n ** 15n;
const newAddress = () => `0x${randomBytes(20).toString('hex')}` as Address;
const hash = () => `0x${randomBytes(32).toString('hex')}`;
const DEPOSIT_CHECKS = ['deposit-missing', 'deposit-unrecorded', 'sweep-mismatch', 'sweep-off-chain', 'sweep-unconfirmed', 'sweep-unproven'];

async function audit(): Promise<Discrepancy[]> {
  return (await reconcile(env.runtime, { blockWindow: 'all' })).discrepancies.filter((d) => DEPOSIT_CHECKS.includes(d.check));
}
const about = (ds: Discrepancy[], id: string) => ds.filter((d) => Object.values(d.ids).includes(id));

/** An order whose deposit address is `address` (not paid: its deposits wait for an admin here, so no order check is involved). */
async function orderAt(address: string) {
  const user = await db().user.create({ data: { name: 'U', email: `${randomBytes(4).toString('hex')}@example.com`, passwordHash: '!', referralCode: newReferralCode() } });
  return db().order.create({ data: { userId: user.id, status: 'EXPIRED', itemsPrice: D(1), totalPrice: D(1), stockReserved: false, depositAddress: address } });
}

/** Sends `sent` wei to `to` on anvil and records a deposit of `recorded` wei for it. */
async function deposit(to: Address, sent: bigint, recorded = sent) {
  const tx = await chain.sendAndWait(ANVIL_ACCOUNTS[0], to, sent);
  const receipt = await chain.wallet.getTransactionReceipt({ hash: tx });
  return db().payment.create({
    data: { txHash: tx.toLowerCase(), depositAddress: to, source: 'INDEXED', status: 'UNRESOLVED', amount: D(recorded), blockNumber: receipt.blockNumber, blockHash: receipt.blockHash },
  });
}

/** A sweep record of `items` (address -> wei flushed), at a real block unless `at` is given. */
async function sweep(items: Record<string, bigint>, opts: { status?: 'SENT' | 'CONFIRMED' | 'FAILED' | 'DROPPED'; sweptWei?: bigint; at?: { blockNumber: bigint; blockHash: string; txHash: string } } = {}) {
  const total = Object.values(items).reduce((a, b) => a + b, 0n);
  const status = opts.status ?? 'CONFIRMED';
  const at =
    opts.at ??
    (status === 'CONFIRMED'
      ? await (async () => {
          const tx = await chain.sendAndWait(ANVIL_ACCOUNTS[1], newAddress(), 1n);
          const r = await chain.wallet.getTransactionReceipt({ hash: tx });
          return { blockNumber: r.blockNumber, blockHash: r.blockHash as string, txHash: tx.toLowerCase() };
        })()
      : { blockNumber: null, blockHash: null, txHash: hash() });
  const confirmed = status === 'CONFIRMED';
  return db().depositSweep.create({
    data: {
      txHash: at.txHash,
      fromAddress: ANVIL_ACCOUNTS[1].toLowerCase(),
      nonce: 0,
      status,
      gasLimit: 200_000n,
      maxFeePerGasWei: D(10n ** 9n),
      expectedWei: D(total),
      sweptWei: confirmed ? D(opts.sweptWei ?? total) : null,
      feeWei: confirmed ? D(80_000n * 10n ** 9n) : null,
      gasUsed: confirmed ? 80_000n : null,
      blockNumber: at.blockNumber,
      blockHash: at.blockHash,
      items: { create: Object.entries(items).map(([address, wei]) => ({ address, expectedWei: D(wei), sweptWei: confirmed ? D(wei) : null })) },
    },
  });
}

describe('deposit addresses against the chain', () => {
  it('finds nothing when each address holds what its unswept deposits add up to, swept ones aside', async () => {
    const a = newAddress();
    await orderAt(a);
    await deposit(a, 10n * MILLI);
    await deposit(a, 3n * MILLI); // a top-up
    // Another address swept in full: its ETH left (not checked against the chain), its deposits marked.
    const b = newAddress();
    const swept = await db().payment.create({ data: { txHash: hash(), depositAddress: b, source: 'INDEXED', status: 'COUNTED', amount: D(7n * MILLI), blockNumber: 1n, blockHash: hash() } });
    const s = await sweep({ [b]: 7n * MILLI });
    await db().payment.update({ where: { id: swept.id }, data: { sweepId: s.id } });
    // A deposit not mined yet (in the mempool) is not expected on chain.
    await db().payment.create({ data: { txHash: hash(), depositAddress: a, source: 'REPORTED', status: 'PENDING' } });

    const report = await reconcile(env.runtime, { blockWindow: 'all' });
    expect(report.discrepancies.filter((d) => DEPOSIT_CHECKS.includes(d.check))).toEqual([]);
    expect(report.checked['deposit addresses']).toBeGreaterThanOrEqual(1);
    expect(report.checked.sweeps).toBeGreaterThanOrEqual(1);
  });

  it("'deposit-missing': recorded ETH that is not at the address", async () => {
    const a = newAddress();
    const order = await orderAt(a);
    await deposit(a, 10n * MILLI, 12n * MILLI);
    const found = about(await audit(), a);
    expect(found).toEqual([
      {
        check: 'deposit-missing',
        message: expect.stringMatching(/^The deposit address holds 0\.01 ETH after block \d+ but its unswept deposits add up to 0\.012 ETH: 0\.002 ETH recorded is not there$/),
        ids: { address: a, orderId: order.id },
      },
    ]);
  });

  it("'deposit-unrecorded': ETH that arrived and that the shop did not record", async () => {
    const a = newAddress();
    await deposit(a, 5n * MILLI);
    await chain.sendAndWait(ANVIL_ACCOUNTS[2], a, 2n * MILLI); // never recorded
    const found = about(await audit(), a);
    expect(found.map((d) => [d.check, d.ids])).toEqual([['deposit-unrecorded', { address: a }]]);
    expect(found[0]!.message).toMatch(/0\.002 ETH more than its unswept deposits \(0\.005 ETH\): ETH arrived that the shop did not record$/);
  });

  it('leaves an address alone while a sweep of it is in flight, and while a deposit has no value yet', async () => {
    const a = newAddress();
    await deposit(a, 4n * MILLI, 9n * MILLI);
    const sent = await sweep({ [a]: 4n * MILLI }, { status: 'SENT' });
    expect(about(await audit(), a)).toEqual([]);
    await db().depositSweep.update({ where: { id: sent.id }, data: { status: 'DROPPED' } });
    expect(about(await audit(), a).map((d) => d.check)).toEqual(['deposit-missing']);

    const b = newAddress();
    const p = await deposit(b, 4n * MILLI, 1n);
    await db().payment.update({ where: { id: p.id }, data: { amount: null } });
    expect(about(await audit(), b)).toEqual([]);
  });
});

/** Sends `sent` of a token (smallest units) to `to` on anvil and records a token deposit of `recorded` for it, as the indexer does. */
async function tokenDeposit(to: Address, symbol: TokenSymbol, sent: bigint, recorded = sent) {
  const token = tokenBySymbol(symbol);
  const tx = await chain.wallet.writeContract({ account: ANVIL_ACCOUNTS[0], address: token.address, abi: quietTransferAbi, functionName: 'transfer', args: [to, sent], chain: null });
  const receipt = await chain.wallet.waitForTransactionReceipt({ hash: tx, pollingInterval: 50 });
  const log = receipt.logs.find((l) => l.address.toLowerCase() === token.address.toLowerCase())!;
  return db().payment.create({
    data: { txHash: tx.toLowerCase(), logIndex: log.logIndex, asset: symbol, depositAddress: to, source: 'INDEXED', status: 'UNRESOLVED', amount: D(recorded), blockNumber: receipt.blockNumber, blockHash: receipt.blockHash },
  });
}
const USDC = 10n ** 6n;

describe('tokens at deposit addresses against the chain', () => {
  it('a USDC deposit is checked in USDC, never summed as wei: nothing found while the address holds it', async () => {
    const a = newAddress();
    await orderAt(a);
    await tokenDeposit(a, 'USDC', 25n * USDC);
    await deposit(a, 2n * MILLI); // ETH beside it, checked in wei
    expect(about(await audit(), a)).toEqual([]);
  });

  it("'deposit-missing' in USDC: recorded USDC that is not at the address", async () => {
    const a = newAddress();
    const order = await orderAt(a);
    await tokenDeposit(a, 'USDC', 20n * USDC, 25n * USDC);
    const found = about(await audit(), a);
    expect(found).toEqual([
      {
        check: 'deposit-missing',
        message: expect.stringMatching(/^The deposit address holds 20 USDC after block \d+ but its unswept USDC deposits add up to 25 USDC: 5 USDC recorded is not there$/),
        ids: { address: a, orderId: order.id, asset: 'USDC' },
      },
    ]);
  });

  it("'deposit-unrecorded' in USDT: a token balance at a deposit address the books do not know", async () => {
    const a = newAddress();
    const order = await orderAt(a);
    await chain.wallet.writeContract({ account: ANVIL_ACCOUNTS[0], address: tokenBySymbol('USDT').address, abi: quietTransferAbi, functionName: 'transfer', args: [a, 7n * USDC], chain: null });
    await chain.mine(1);
    const found = about(await audit(), a);
    expect(found.map((d) => [d.check, d.ids])).toEqual([['deposit-unrecorded', { address: a, orderId: order.id, asset: 'USDT' }]]);
    expect(found[0]!.message).toMatch(/^The deposit address holds 7 USDT after block \d+, 7 USDT more than its unswept USDT deposits \(0 USDT\): USDT arrived that the shop did not record$/);
  });

  it("'sweep-mismatch' in USDC: a token sweep's item that is not the token deposits it marked", async () => {
    const a = newAddress();
    const paid = await db().payment.create({ data: { txHash: hash(), logIndex: 1, asset: 'USDC', depositAddress: a, source: 'INDEXED', status: 'COUNTED', amount: D(20n * USDC), blockNumber: 1n, blockHash: hash() } });
    const s = await sweep({ [a]: 0n });
    await db().depositSweep.update({ where: { id: s.id }, data: { kind: 'TOKENS' } });
    await db().depositSweepItem.updateMany({ where: { sweepId: s.id }, data: { asset: 'USDC', expectedAmount: D(25n * USDC), sweptAmount: D(25n * USDC) } });
    await db().payment.update({ where: { id: paid.id }, data: { sweepId: s.id } });
    const found = (await audit()).filter((d) => d.ids.sweepId === s.id && d.check === 'sweep-mismatch');
    expect(found.map((d) => [d.check, d.message])).toEqual([['sweep-mismatch', 'The sweep moved 25 USDC from the deposit address but the USDC deposits it marked there add up to 20 USDC']]);
  });

  it("'sweep-unproven' in USDC: a confirmed token sweep whose block did not raise the receiving address's USDC by what it says it moved there", async () => {
    const a = newAddress();
    const paid = await db().payment.create({ data: { txHash: hash(), logIndex: 1, asset: 'USDC', depositAddress: a, source: 'INDEXED', status: 'COUNTED', amount: D(25n * USDC), blockNumber: 1n, blockHash: hash() } });
    // Recorded as confirmed at a block where no USDC reached the receiving address.
    const s = await sweep({ [a]: 0n });
    await db().depositSweep.update({ where: { id: s.id }, data: { kind: 'TOKENS' } });
    await db().depositSweepItem.updateMany({ where: { sweepId: s.id }, data: { asset: 'USDC', expectedAmount: D(25n * USDC), sweptAmount: D(25n * USDC) } });
    await db().payment.update({ where: { id: paid.id }, data: { sweepId: s.id } });
    const found = (await audit()).filter((d) => d.ids.sweepId === s.id);
    expect(found).toEqual([
      {
        check: 'sweep-unproven',
        message: expect.stringMatching(/^The receiving address's USDC rose 0 USDC in block \d+ \(with what it sent\), less than the 25 USDC the token sweeps of that block moved there$/),
        ids: { sweepId: s.id, txHash: s.txHash, asset: 'USDC' },
      },
    ]);
  });
});

describe('sweeps against their items, their deposits and the chain', () => {
  it("'sweep-mismatch': a total that is not its items', an item that is not its deposits, a deposit outside its items", async () => {
    const a = newAddress();
    const b = newAddress();
    const pa = await db().payment.create({ data: { txHash: hash(), depositAddress: a, source: 'INDEXED', status: 'COUNTED', amount: D(5n * MILLI), blockNumber: 1n, blockHash: hash() } });
    const pb = await db().payment.create({ data: { txHash: hash(), depositAddress: b, source: 'INDEXED', status: 'COUNTED', amount: D(2n * MILLI), blockNumber: 1n, blockHash: hash() } });
    // The sweep flushed 5 mETH from `a` and 3 from `b`, and says it moved 9; only `a`'s deposit is marked so far.
    const s = await sweep({ [a]: 5n * MILLI, [b]: 3n * MILLI }, { sweptWei: 9n * MILLI });
    await db().payment.update({ where: { id: pa.id }, data: { sweepId: s.id } });
    const stray = await db().payment.create({ data: { txHash: hash(), depositAddress: newAddress(), source: 'INDEXED', status: 'COUNTED', amount: D(1n), blockNumber: 1n, blockHash: hash(), sweepId: s.id } });

    const found = about(await audit(), s.id);
    expect(found.map((d) => d.message).sort()).toEqual([
      'The deposit is marked swept by a sweep that did not sweep its address',
      'The sweep flushed 0.003 ETH from the deposit address but the deposits it marked there add up to 0 ETH',
      'The sweep records 0.009 ETH swept but its addresses flushed 0.008 ETH',
    ]);
    expect(found.every((d) => d.check === 'sweep-mismatch')).toBe(true);
    expect(found.find((d) => d.ids.address)?.ids).toEqual({ sweepId: s.id, address: b, txHash: s.txHash });
    expect(found.find((d) => d.ids.paymentId)?.ids.paymentId).toBe(stray.id);

    // `b`'s deposit marked too (2 of the 3 flushed): still short by 0.001 ETH.
    await db().payment.update({ where: { id: pb.id }, data: { sweepId: s.id } });
    await db().payment.delete({ where: { id: stray.id } });
    await db().depositSweep.update({ where: { id: s.id }, data: { sweptWei: D(8n * MILLI) } });
    expect(about(await audit(), s.id).map((d) => d.message)).toEqual(['The sweep flushed 0.003 ETH from the deposit address but the deposits it marked there add up to 0.002 ETH']);
    await db().payment.update({ where: { id: pb.id }, data: { amount: D(3n * MILLI) } });
    expect(about(await audit(), s.id)).toEqual([]);
  });

  it("'sweep-unconfirmed': a deposit marked swept by a sweep that failed", async () => {
    const a = newAddress();
    const s = await sweep({ [a]: MILLI }, { status: 'FAILED' });
    const p = await db().payment.create({ data: { txHash: hash(), depositAddress: a, source: 'INDEXED', status: 'COUNTED', amount: D(MILLI), blockNumber: 1n, blockHash: hash(), sweepId: s.id } });
    expect(about(await audit(), s.id)).toEqual([
      { check: 'sweep-unconfirmed', message: 'The deposit is marked swept by a sweep that is FAILED, not CONFIRMED', ids: { paymentId: p.id, sweepId: s.id, txHash: p.txHash } },
    ]);
    await db().payment.update({ where: { id: p.id }, data: { sweepId: null, status: 'REJECTED' } });
  });

  it("'sweep-unproven': a sweep mined but not shown to have paid the receiving address, named by each of its addresses", async () => {
    const [a, b] = [newAddress(), newAddress()];
    const s = await sweep({ [a]: MILLI, [b]: 2n * MILLI }, { status: 'SENT' });
    expect(about(await audit(), s.id)).toEqual([]); // on its way: nothing to say
    const reason = 'Sent by another account: the shop paid no gas. Not shown to have paid the receiving address: its trace shows 0 ETH reaching it';
    await db().depositSweep.update({ where: { id: s.id }, data: { reason } });
    const found = about(await audit(), s.id);
    expect(found.map((d) => [d.check, d.ids]).sort()).toEqual(
      [
        ['sweep-unproven', { sweepId: s.id, txHash: s.txHash, address: a }],
        ['sweep-unproven', { sweepId: s.id, txHash: s.txHash, address: b }],
      ].sort(),
    );
    expect(found[0]!.message).toBe(`The sweep is mined but not confirmed: ${reason}`);
    await db().depositSweep.update({ where: { id: s.id }, data: { status: 'DROPPED' } });
  });

  it('a deposit of the sweep\'s own transaction sent partly after its flush: the sweep accounts for the part it moved, the address for the rest', async () => {
    const a = newAddress();
    await orderAt(a);
    // Before: 4 mETH recorded and moved by the sweep. Then, in the sweep's transaction, 5
    // mETH deposited: 2 before the flush (moved by it), 3 after (still at the address).
    const before = await db().payment.create({ data: { txHash: hash(), depositAddress: a, source: 'INDEXED', status: 'COUNTED', amount: D(4n * MILLI), blockNumber: 1n, blockHash: hash() } });
    const own = await deposit(a, 3n * MILLI, 5n * MILLI);
    const s = await sweep({ [a]: 6n * MILLI }, { at: { blockNumber: own.blockNumber!, blockHash: own.blockHash!, txHash: own.txHash } });
    await db().payment.update({ where: { id: before.id }, data: { sweepId: s.id } });
    await db().payment.update({ where: { id: own.id }, data: { flushedEarly: D(2n * MILLI) } });
    expect(about(await audit(), a)).toEqual([]);
    // Without the part it moved, both sides are off by it.
    await db().payment.update({ where: { id: own.id }, data: { flushedEarly: D(0) } });
    expect(about(await audit(), a).map((d) => d.check).sort()).toEqual(['deposit-missing', 'sweep-mismatch']);
    await db().payment.update({ where: { id: own.id }, data: { flushedEarly: D(2n * MILLI) } });
  });

  it("'sweep-off-chain': a confirmed sweep whose block a reorganisation dropped", async () => {
    const s = await sweep({ [newAddress()]: 0n });
    expect(about(await audit(), s.id)).toEqual([]);
    await chain.reorg(1);
    const found = about(await audit(), s.id);
    expect(found.map((d) => [d.check, d.ids])).toEqual([['sweep-off-chain', { sweepId: s.id, txHash: s.txHash }]]);
    expect(found[0]!.message).toContain(`block ${s.blockNumber} is now 0x`);
    // Outside the window of recent blocks it is final: not asked again.
    await chain.mine(5);
    expect(about((await reconcile(env.runtime, { blockWindow: 2 })).discrepancies, s.id)).toEqual([]);
    await db().depositSweep.update({ where: { id: s.id }, data: { status: 'DROPPED' } });
  });

  it('asks the node nothing about deposits when the chain checks are left out', async () => {
    const report = await reconcile({ ...env.runtime, chain: null as never }, { blockWindow: 'all', chain: false });
    expect(report.checked['deposit addresses']).toBeUndefined();
    expect(report.checked.sweeps).toBeGreaterThan(0);
  });
});

describe('the scheduled run', () => {
  it('reads the addresses and sweeps changed since, reports an open discrepancy again until it is fixed, and leaves untouched ones to the audit', async () => {
    // Everything so far is old: a wrong address nobody touched since is the audit's.
    const quiet = newAddress();
    await deposit(quiet, MILLI, 2n * MILLI);
    await db().$executeRaw`UPDATE "Payment" SET "updatedAt" = now() - interval '3 days'`;
    await db().$executeRaw`UPDATE "Order" SET "updatedAt" = now() - interval '3 days'`;
    await db().$executeRaw`UPDATE "DepositSweep" SET "createdAt" = now() - interval '3 days'`;
    await db().reconciliationRun.deleteMany();
    await runReconciliation(env.runtime, { blockWindow: 'all' });
    await db().reconciliationRun.updateMany({ data: { startedAt: new Date(Date.now() - 3_600_000), discrepancies: [] } });

    const busy = newAddress();
    await deposit(busy, MILLI, 3n * MILLI);
    const first = await runReconciliation(env.runtime, { scope: 'changes', blockWindow: 'all' });
    expect(first.scope).toBe('changes');
    expect(first.checked['deposit addresses']).toBe(1);
    expect(first.checked.sweeps).toBe(0);
    expect(first.discrepancies.filter((d) => DEPOSIT_CHECKS.includes(d.check)).map((d) => d.ids.address)).toEqual([busy]);

    // Nothing changed at that address since (as far as its timestamps tell): reported
    // again; then fixed by hand, no timestamp moved, and no longer reported.
    await db().$executeRaw`UPDATE "Payment" SET "updatedAt" = now() - interval '3 days' WHERE "depositAddress" = ${busy}`;
    const again = await runReconciliation(env.runtime, { scope: 'changes', blockWindow: 'all' });
    expect(again.discrepancies.map((d) => d.ids.address)).toContain(busy);
    await db().$executeRaw`UPDATE "Payment" SET "amount" = ${D(MILLI)} WHERE "depositAddress" = ${busy}`;
    const fixed = await runReconciliation(env.runtime, { scope: 'changes', blockWindow: 'all' });
    expect(fixed.discrepancies.map((d) => d.ids.address)).not.toContain(busy);

    // A sweep sent since is read with its deposits.
    const s = await sweep({ [newAddress()]: MILLI }, { sweptWei: 2n * MILLI });
    const swept = await runReconciliation(env.runtime, { scope: 'changes', blockWindow: 'all' });
    expect(swept.checked.sweeps).toBe(1);
    expect(swept.discrepancies.filter((d) => d.ids.sweepId === s.id).map((d) => d.check)).toContain('sweep-mismatch');

    // The weekly audit reads every address and sweep, in batches of any size.
    const all = await reconcile(env.runtime, { blockWindow: 'all', batchSize: 2 });
    expect(all.discrepancies.filter((d) => d.ids.address === quiet).map((d) => d.check)).toEqual(['deposit-missing']);
    expect(all.checked.sweeps).toBe(await db().depositSweep.count());
  });
});
