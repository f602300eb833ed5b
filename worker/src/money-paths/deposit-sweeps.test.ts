import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTracer, jobIds, jobs, MICRO_ETH_WEI, readSweeperStatus, recoverDepositToken, runDepositSweeper, type AppConfig, type SweepRun } from '@shop/core';
import { numberToHex, parseGwei, type Address, type Hash } from 'viem';
import { depositFactoryAbi } from '../../../core/src/deposits/abi.ts';
import { depositSalt } from '../../../core/src/deposits/addresses.ts';
import { deployDepositFactory } from '../../../scripts/lib/deposit-factory.ts';
import { REPO_ROOT } from '../../../scripts/lib/paths.ts';
import { compileSolidity } from '../../../scripts/lib/solidity.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { readCandidates } from '../../../core/src/deposit-sweeper/sweeper-candidates.ts';
import { gasSpent } from '../../../core/src/deposit-sweeper/sweeper-budget.ts';
import { followSweeps } from '../../../core/src/deposit-sweeper/sweeper-verify.ts';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { readsOf, recordingDb } from '../../../scripts/testing/query-plans.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Sweeping deposit addresses (core/src/deposit-sweeper/sweeper.ts) through the worker's
 * `deposit-sweep` job: the deposits of settled orders go on to the receiving address in one
 * batch transaction to the factory, paid from the gas wallet, within a gas price ceiling
 * and a gas budget; each sweep is followed on chain to CONFIRMED, and only then are the
 * deposits marked swept, by their addresses' own Flushed events. Deposits are found by
 * the worker's indexer (sent to the order's deposit address from an exchange's wallet).
 */
/** Anvil's dev account #8: the gas wallet, signed here (SWEEPER_PRIVATE_KEY). */
const SWEEPER_KEY = '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97';
const sweeper = ANVIL_ACCOUNTS[8].toLowerCase() as Address;
const exchange = ANVIL_ACCOUNTS[4];
const stranger = ANVIL_ACCOUNTS[6];
const FINNEY = 10n ** 15n;

/** The amount an exchange user sends: the quote rounded (no tag). */
const roundOf = (amountWei: bigint) => amountWei - (amountWei % MICRO_ETH_WEI);

/** What every test of a kit needs: deposits found by its indexer, sweeps run by its worker. */
function sweepKit(kit: PaymentKit) {
  const queue = () => kit.workerRuntime.queues['deposit-sweep'];
  return {
    async deposit(to: Address, value: bigint, from: Address = exchange): Promise<Hash> {
      const hash = await kit.chain.sendAndWait(from, to, value);
      await kit.runIndexer();
      return hash;
    },
    async settled(hash: Hash, statuses = ['COUNTED']) {
      return waitFor(`the deposit ${hash} in ${statuses.join('/')}`, async () => {
        const p = await kit.db.payment.findFirst({ where: { txHash: hash.toLowerCase(), depositAddress: { not: null } } });
        return p && statuses.includes(p.status) ? p : null;
      });
    },
    /**
     * One run of the worker's deposit-sweep job, asked for now; its result. The worker's
     * indexer runs every few seconds, the sweeper every few minutes: one indexer pass comes
     * first (a mined sweep is confirmed only once the indexer has passed its block).
     */
    async sweepNow(): Promise<SweepRun> {
      await kit.runIndexer();
      await jobs.sweepDeposits(kit.workerRuntime.queues);
      return waitFor('the deposit-sweep job', async () => {
        const job = await queue().getJob(jobIds.depositSweep);
        const state = await job?.getState();
        if (state === 'failed') throw new Error(`the deposit-sweep job failed: ${job?.failedReason}`);
        return state === 'completed' ? (job?.returnvalue as SweepRun) : null;
      });
    },
    status: () => readSweeperStatus(kit.workerRuntime.redis, kit.workerRuntime.config),
    /** The network's fee from the next block on (anvil): the node suggests 1.2 x base + 1 gwei. */
    async baseFee(gwei: string) {
      await kit.chain.test.request({ method: 'anvil_setNextBlockBaseFeePerGas' as never, params: [numberToHex(parseGwei(gwei))] as never });
      await kit.chain.mine(1);
    },
    balance: (address: Address) => kit.chain.wallet.getBalance({ address }),
    async paidOrder(user: TestUser, extraWei = 0n) {
      const order = await kit.placeOrder(user);
      const hash = await this.deposit(order.depositAddress, roundOf(order.amountWei) + extraWei);
      await kit.waitForStatus(order.id, 'PAID');
      return { ...order, hash, value: roundOf(order.amountWei) + extraWei };
    },
  };
}

let kit: PaymentKit;
let s: ReturnType<typeof sweepKit>;
let buyer: TestUser;
let other: TestUser;

beforeAll(async () => {
  kit = await createPaymentKit({ env: { SWEEPER_PRIVATE_KEY: SWEEPER_KEY } });
  s = sweepKit(kit);
  buyer = await kit.createUser({ name: 'Buyer' });
  other = await kit.createUser({ name: 'Other' });
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.close();
});

describe('sweeping deposit addresses', () => {
  it("sweeps two orders' deposit addresses in one transaction to the factory; confirmed, each address's amount, the deposits marked, the gas recorded", async () => {
    const first = await s.paidOrder(buyer);
    const second = await s.paidOrder(other, 5n * FINNEY);
    const before = await s.balance(kit.receiving);
    // Two workers run at once: one sweep is sent, not two.
    const runs = await Promise.all([s.sweepNow(), runDepositSweeper({ ...kit.workerRuntime })]);
    const sweeps = await kit.db.depositSweep.findMany({ include: { items: true } });
    expect(sweeps).toHaveLength(1);
    const sweep = sweeps[0]!;
    expect(runs.filter((r) => r.state === 'sent')).toHaveLength(1);
    expect(sweep).toMatchObject({ status: 'SENT', fromAddress: sweeper });
    expect(sweep.items.map((i) => [i.address, i.expectedWei.toFixed(0)]).sort()).toEqual(
      [
        [first.depositAddress, first.value.toString()],
        [second.depositAddress, second.value.toString()],
      ].sort(),
    );
    const tx = await kit.chain.wallet.getTransaction({ hash: sweep.txHash as Hash });
    expect(tx.to?.toLowerCase()).toBe(kit.env.config.depositFactoryAddress?.toLowerCase());
    expect(tx.value).toBe(0n);

    // The next runs (two workers again) follow it to CONFIRMED, once.
    await Promise.all([s.sweepNow(), runDepositSweeper({ ...kit.workerRuntime })]);
    const receipt = await kit.chain.wallet.getTransactionReceipt({ hash: sweep.txHash as Hash });
    const done = await kit.db.depositSweep.findUniqueOrThrow({ where: { id: sweep.id }, include: { items: true, payments: true } });
    expect(done).toMatchObject({ status: 'CONFIRMED', gasUsed: receipt.gasUsed, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, reason: null });
    expect(done.feeWei?.toFixed(0)).toBe((receipt.gasUsed * receipt.effectiveGasPrice).toString());
    expect(done.sweptWei?.toFixed(0)).toBe((first.value + second.value).toString());
    for (const item of done.items) expect(item.sweptWei?.toFixed(0)).toBe(item.expectedWei.toFixed(0));
    expect(done.payments.map((p) => p.txHash).sort()).toEqual([first.hash.toLowerCase(), second.hash.toLowerCase()].sort());
    expect(await s.balance(kit.receiving)).toBe(before + first.value + second.value);
    expect(await s.balance(first.depositAddress)).toBe(0n);
    expect(await s.status()).toMatchObject({ state: 'idle', reason: null });
    console.log(`[deposit-sweeps] two addresses swept in one transaction: ${receipt.gasUsed} gas (limit ${done.gasLimit}), fee ${done.feeWei} wei`);
  });

  it('leaves an order still being paid (UNDERPAID) at a plain address; sweeps it once it is paid', async () => {
    const order = await kit.placeOrder(buyer, 2); // $50
    const part = await s.deposit(order.depositAddress, 10n * FINNEY); // $30
    await kit.waitForStatus(order.id, 'UNDERPAID');
    await s.settled(part);
    const run = await s.sweepNow();
    expect(run.state).toBe('idle');
    expect(await kit.db.depositSweepItem.count({ where: { address: order.depositAddress } })).toBe(0);
    expect(await kit.chain.wallet.getCode({ address: order.depositAddress })).toBeUndefined();
    // The top-up (the rest) reaches a plain address and pays it; then it is swept.
    await s.deposit(order.depositAddress, 7n * FINNEY);
    await kit.waitForStatus(order.id, 'PAID');
    expect((await s.sweepNow()).state).toBe('sent');
    await s.sweepNow();
    const item = await kit.db.depositSweepItem.findFirstOrThrow({ where: { address: order.depositAddress }, include: { sweep: true } });
    expect(item.sweep.status).toBe('CONFIRMED');
    expect(item.sweptWei?.toFixed(0)).toBe((17n * FINNEY).toString());
    expect(await kit.db.payment.count({ where: { depositAddress: order.depositAddress, sweepId: item.sweepId } })).toBe(2);
  });

  it('skips dust (worth less than the gas to sweep it) and says so; a real deposit beside it goes', async () => {
    const swept = await kit.db.order.findFirstOrThrow({ where: { depositAddress: { not: null }, payments: { some: { sweepId: { not: null } } } } });
    const dust = await s.deposit(swept.depositAddress as Address, 1000n, stranger);
    await s.settled(dust, ['UNRESOLVED', 'COUNTED', 'LATE']);
    const real = await s.paidOrder(buyer);
    const run = await s.sweepNow();
    expect(run.state).toBe('sent');
    expect(run.reason).toMatch(/1 address holds only dust/);
    const sweep = await kit.db.depositSweep.findFirstOrThrow({ where: { status: 'SENT' }, include: { items: true } });
    expect(sweep.items.map((i) => i.address)).toEqual([real.depositAddress]);
    await s.sweepNow();
    const after = await s.sweepNow();
    expect(after).toMatchObject({ state: 'idle', reason: expect.stringMatching(/^1 address holds only dust \(0\.000000000000001 ETH/) });
    expect(await s.balance(swept.depositAddress as Address)).toBe(1000n);
  });

  it('waits while the network fee is above the ceiling and says why; sweeps once it falls', async () => {
    const order = await s.paidOrder(other);
    await s.baseFee('100');
    const run = await s.sweepNow();
    expect(run.state).toBe('waiting');
    expect(run.reason).toMatch(/^Sweeping waits: the network's fee is 121 gwei, above the ceiling of 30 gwei \(SWEEP_MAX_GAS_PRICE_GWEI\); 2 addresses hold/);
    expect(await s.status()).toMatchObject({ state: 'waiting', reason: run.reason });
    expect(await kit.db.depositSweep.count({ where: { status: 'SENT' } })).toBe(0);
    await s.baseFee('1');
    expect((await s.sweepNow()).state).toBe('sent');
    await s.sweepNow();
    expect(await kit.db.depositSweepItem.findFirst({ where: { address: order.depositAddress, sweep: { status: 'CONFIRMED' } } })).toBeTruthy();
  });

  it("records a sweep someone else sent (anyone may call the factory): found by the addresses' Flushed events, confirmed, the shop paying no gas", async () => {
    const order = await s.paidOrder(buyer);
    const factory = kit.env.config.depositFactoryAddress as Address;
    const hash = await kit.chain.wallet.writeContract({ account: stranger, address: factory, abi: depositFactoryAbi, functionName: 'sweep', args: [[depositSalt(order.id)]], chain: null });
    await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await s.sweepNow(); // found and recorded
    await s.sweepNow(); // followed to CONFIRMED
    const found = await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: hash.toLowerCase() }, include: { payments: true } });
    expect(found).toMatchObject({ status: 'CONFIRMED', fromAddress: stranger.toLowerCase(), reason: expect.stringMatching(/^Sent by another account: the shop paid no gas/) });
    expect(found.feeWei?.toFixed(0)).toBe('0');
    expect(found.sweptWei?.toFixed(0)).toBe(order.value.toString());
    expect(found.payments.map((p) => p.txHash)).toEqual([order.hash.toLowerCase()]);
  });

  it("on a node that cannot trace: a sweep is confirmed by the receiving address's balance change at its block, which covers the flush and a payment beside it", async () => {
    const blind = { ...kit.workerRuntime, tracer: createTracer(kit.workerRuntime.chain, 'off') };
    const order = await s.paidOrder(buyer);
    const payment = await kit.placeOrder(other);
    const before = await s.balance(kit.receiving);
    await kit.chain.setAutomine(false);
    try {
      expect((await runDepositSweeper(blind)).state).toBe('sent');
      // A buyer pays the receiving address in the same block.
      await kit.chain.send(exchange, kit.receiving, payment.amountWei);
      await kit.chain.mine(1);
    } finally {
      await kit.chain.setAutomine(true);
    }
    await kit.runIndexer({ tracer: blind.tracer });
    await kit.waitForStatus(payment.id, 'PAID');
    expect(await s.balance(kit.receiving)).toBe(before + order.value + payment.amountWei);
    expect((await runDepositSweeper(blind)).followed.confirmed).toBe(1);
    const item = await kit.db.depositSweepItem.findFirstOrThrow({ where: { address: order.depositAddress }, include: { sweep: true } });
    expect(item.sweep).toMatchObject({ status: 'CONFIRMED', reason: null });
    expect(item.sweptWei?.toFixed(0)).toBe(order.value.toString());
  });

  it('replaces a sweep the node lost with its nonce; the lost one is DROPPED once its nonce is used, and the deposits are marked by the one mined', async () => {
    const order = await s.paidOrder(buyer);
    await kit.chain.setAutomine(false);
    try {
      expect((await s.sweepNow()).state).toBe('sent');
      await kit.chain.dropAll(); // the node forgets it (a crash before the broadcast looks the same)
    } finally {
      await kit.chain.setAutomine(true);
    }
    const lost = await kit.db.depositSweep.findFirstOrThrow({ where: { status: 'SENT' }, include: { items: true } });
    expect(lost.items.map((i) => i.address)).toEqual([order.depositAddress]);
    // Not yet: a transaction may take a while to reach the node.
    expect((await s.sweepNow()).sent).toBeUndefined();
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    await kit.db.$executeRaw`UPDATE "DepositSweep" SET "createdAt" = ${minutesAgo(6)} WHERE "id" = ${lost.id}::uuid`;
    // (At the same fee the replacement would be the very same transaction, broadcast again.)
    await s.baseFee('2');
    const again = await s.sweepNow();
    expect(again.followed.lost).toEqual([lost.id]);
    expect(again.state).toBe('sent');
    const replacement = await kit.db.depositSweep.findFirstOrThrow({ where: { status: 'SENT', id: { not: lost.id } }, include: { items: true } });
    expect(replacement.nonce).toBe(lost.nonce);
    expect(replacement.items.map((i) => i.address)).toEqual([order.depositAddress]);
    await s.sweepNow(); // the replacement is confirmed; the lost one's nonce is used: noted
    expect(await kit.db.depositSweep.findUniqueOrThrow({ where: { id: replacement.id } })).toMatchObject({ status: 'CONFIRMED' });
    expect((await kit.db.depositSweep.findUniqueOrThrow({ where: { id: lost.id } })).reason).toMatch(/has used nonce/);
    await kit.db.$executeRaw`UPDATE "DepositSweep" SET "updatedAt" = ${minutesAgo(6)} WHERE "id" = ${lost.id}::uuid`;
    expect((await s.sweepNow()).followed.dropped).toBe(1);
    expect(await kit.db.depositSweep.findUniqueOrThrow({ where: { id: lost.id } })).toMatchObject({ status: 'DROPPED', reason: expect.stringMatching(/^Never mined/) });
    expect((await kit.db.payment.findFirstOrThrow({ where: { txHash: order.hash.toLowerCase() } })).sweepId).toBe(replacement.id);
  });

  it('marks a sweep that reverted FAILED with its reason and its gas, and sweeps its addresses again', async () => {
    const order = await s.paidOrder(other);
    const factory = kit.env.config.depositFactoryAddress as Address;
    // The gas wallet's sweep runs out of gas on chain (its row written as the sweeper writes it).
    const nonce = await kit.chain.wallet.getTransactionCount({ address: sweeper, blockTag: 'pending' });
    const hash = await kit.chain.wallet.writeContract({ account: sweeper, address: factory, abi: depositFactoryAbi, functionName: 'sweep', args: [[depositSalt(order.id)]], gas: 30_000n, chain: null });
    expect((await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('reverted');
    const tx = await kit.chain.wallet.getTransaction({ hash });
    const row = await kit.db.depositSweep.create({
      data: { txHash: hash.toLowerCase(), fromAddress: sweeper, nonce, gasLimit: 30_000n, maxFeePerGasWei: tx.maxFeePerGas!.toString(), expectedWei: order.value.toString(), items: { create: [{ address: order.depositAddress, expectedWei: order.value.toString() }] } },
    });
    const run = await s.sweepNow();
    expect(run.followed.failed).toBe(1);
    const failed = await kit.db.depositSweep.findUniqueOrThrow({ where: { id: row.id } });
    expect(failed).toMatchObject({ status: 'FAILED', gasUsed: 30_000n, reason: expect.stringMatching(/^Reverted on chain in block \d+ \(gas used 30000 of its limit 30000\); its addresses are swept again$/) });
    expect(BigInt(failed.feeWei!.toFixed(0))).toBeGreaterThan(0n);
    expect(run.state).toBe('sent');
    await s.sweepNow();
    const payment = await kit.db.payment.findFirstOrThrow({ where: { txHash: order.hash.toLowerCase() }, include: { sweep: true } });
    expect(payment.sweep).toMatchObject({ status: 'CONFIRMED' });
  });

  it('sends through an external signer (eth_sendTransaction) too: the row is written once the signer returns the hash', async () => {
    const order = await s.paidOrder(other);
    const signer = ANVIL_ACCOUNTS[5].toLowerCase() as Address; // anvil signs for it, as a signer behind the node would
    const config: AppConfig = { ...kit.workerRuntime.config, sweeperPrivateKey: undefined, sweeperAddress: signer };
    const run = await runDepositSweeper({ ...kit.workerRuntime, config });
    expect(run.state).toBe('sent');
    await kit.runIndexer();
    await runDepositSweeper({ ...kit.workerRuntime, config });
    const item = await kit.db.depositSweepItem.findFirstOrThrow({ where: { address: order.depositAddress }, include: { sweep: true } });
    expect(item.sweep).toMatchObject({ status: 'CONFIRMED', fromAddress: signer });
  });

  it('is off without a gas wallet, and says so', async () => {
    const config: AppConfig = { ...kit.workerRuntime.config, sweeperPrivateKey: undefined, sweeperAddress: null };
    const run = await runDepositSweeper({ ...kit.workerRuntime, config });
    expect(run).toMatchObject({ state: 'off', reason: expect.stringMatching(/SWEEPER_PRIVATE_KEY/) });
    expect(await readSweeperStatus(kit.workerRuntime.redis, config)).toMatchObject({ state: 'off', reason: run.reason });
    expect((await s.sweepNow()).state).toBe('idle');
  });

  it('refuses to send through a factory deployed for another receiving address, or no contract at all', async () => {
    const elsewhere = await deployDepositFactory({ rpcUrl: kit.env.anvil!.rpcUrl, account: ANVIL_ACCOUNTS[0], receiver: stranger });
    for (const [factory, reason] of [
      [elsewhere.address, new RegExp(`^Sweeping refused: the deposit factory ${elsewhere.address} was deployed for the receiving address ${stranger}, not`)],
      [stranger, new RegExp(`^Sweeping refused: no contract is deployed at the deposit factory address ${stranger}`)],
    ] as const) {
      const config: AppConfig = { ...kit.workerRuntime.config, depositFactoryAddress: factory };
      expect(await runDepositSweeper({ ...kit.workerRuntime, config })).toMatchObject({ state: 'waiting', reason: expect.stringMatching(reason) });
    }
    expect(await kit.chain.wallet.getTransactionCount({ address: sweeper, blockTag: 'pending' })).toBe(await kit.chain.wallet.getTransactionCount({ address: sweeper }));
    expect((await s.sweepNow()).state).toBe('idle');
  });

  it('recovers a token sent to a deposit address by mistake to the receiving address, from the gas wallet', async () => {
    const order = await kit.placeOrder(buyer);
    const { abi, bytecode } = await compileSolidity(path.join(REPO_ROOT, 'scripts/testing/test-token.sol'), 'TestToken');
    const deployed = await kit.chain.wallet.deployContract({ abi, bytecode, args: [1_000_000n, true], account: exchange, chain: null });
    const token = (await kit.chain.wallet.waitForTransactionReceipt({ hash: deployed, pollingInterval: 50 })).contractAddress as Address;
    const sent = await kit.chain.wallet.writeContract({ address: token, abi, functionName: 'transfer', args: [order.depositAddress, 1234n], account: exchange, chain: null });
    await kit.chain.wallet.waitForTransactionReceipt({ hash: sent, pollingInterval: 50 });
    // Not while the order is being paid (its address would stop taking plain transfers).
    await expect(recoverDepositToken(kit.workerRuntime, order.id, token)).rejects.toThrow(/still being paid/);
    await s.deposit(order.depositAddress, roundOf(order.amountWei));
    await kit.waitForStatus(order.id, 'PAID');
    const result = await recoverDepositToken(kit.workerRuntime, order.id, token);
    expect(result).toMatchObject({ status: 'success', amount: 1234n, receiverBefore: 0n, receiverAfter: 1234n });
    expect(result.receiver.toLowerCase()).toBe(kit.receiving.toLowerCase());
    const tx = await kit.chain.wallet.getTransaction({ hash: result.txHash as Hash });
    expect([tx.from.toLowerCase(), tx.to?.toLowerCase()]).toEqual([sweeper, kit.env.config.depositFactoryAddress?.toLowerCase()]);
    expect(await kit.chain.wallet.readContract({ address: token, abi, functionName: 'balanceOf', args: [order.depositAddress] })).toBe(0n);
    // Again: nothing left, nothing sent.
    expect((await recoverDepositToken(kit.workerRuntime, order.id, token)).status).toBe('nothing-to-recover');
    console.log(`[deposit-sweeps] a token recovered: ${result.gasUsed} gas`);
  });
});

describe('the gas budget', () => {
  let budgetKit: PaymentKit;
  let b: ReturnType<typeof sweepKit>;
  beforeAll(async () => {
    budgetKit = await createPaymentKit({ env: { SWEEPER_PRIVATE_KEY: SWEEPER_KEY, SWEEP_GAS_BUDGET_ETH: '0.0035' } });
    b = sweepKit(budgetKit);
    await budgetKit.runIndexer();
  });
  afterAll(async () => {
    await budgetKit?.close();
  });

  it('sends the part of a batch that fits the 24-hour budget, then waits and says why, and goes once older sweeps leave the window', async () => {
    const user = await budgetKit.createUser();
    const big = await b.paidOrder(user, 5n * FINNEY);
    const small = await b.paidOrder(user);
    // At 20 gwei (the node suggests 25): two addresses may cost ~0.0042 ETH, one ~0.0025.
    await b.baseFee('20');
    const first = await b.sweepNow();
    expect(first.state).toBe('sent');
    const sent = await budgetKit.db.depositSweep.findFirstOrThrow({ include: { items: true } });
    expect(sent.items.map((i) => i.address)).toEqual([big.depositAddress]);
    await b.sweepNow();
    const confirmed = await budgetKit.db.depositSweep.findUniqueOrThrow({ where: { id: sent.id } });
    expect(confirmed.status).toBe('CONFIRMED');

    await b.baseFee('20');
    const waiting = await b.sweepNow();
    expect(waiting.state).toBe('waiting');
    const used = Number(confirmed.feeWei) / 1e18;
    expect(waiting.reason).toMatch(/^Sweeping waits: the gas budget of 0\.0035 ETH for 24 hours is spent \(0\.00\d+ ETH used\); next sweep when older sweeps leave the window \(from /);
    expect(Number(/\((0\.\d+) ETH used\)/.exec(waiting.reason ?? '')?.[1])).toBeCloseTo(used, 5);
    expect(await b.status()).toMatchObject({ state: 'waiting', reason: waiting.reason });
    expect(await budgetKit.db.depositSweep.count()).toBe(1);

    // A day later the first sweep has left the window.
    await budgetKit.db.depositSweep.update({ where: { id: sent.id }, data: { createdAt: new Date(Date.now() - 25 * 3600_000) } });
    await b.baseFee('20');
    expect((await b.sweepNow()).state).toBe('sent');
    await b.sweepNow();
    expect(await budgetKit.db.depositSweepItem.findFirst({ where: { address: small.depositAddress, sweep: { status: 'CONFIRMED' } } })).toBeTruthy();
    console.log(`[deposit-sweeps] one address at a 20 gwei base fee: ${confirmed.gasUsed} gas, ${confirmed.feeWei} wei`);
  });
});

describe('what a run reads', () => {
  const HISTORY = 20_000;
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
    const client = new pg.Client({ connectionString: env.config.databaseUrl });
    await client.connect();
    try {
      const user = `'00000000-0000-4000-8000-00000000d051'::uuid`;
      const address = (n: string) => `'0x' || lpad(to_hex(${n}), 40, '0')`;
      await client.query(`INSERT INTO "User" ("id", "name", "email", "passwordHash", "referralCode", "updatedAt") VALUES (${user}, 'History', 'deposits@example.com', 'x', 'deposit-history', now())`);
      // Two years of swept deposits: an order, its deposit and the confirmed sweep that took it (ten a sweep).
      await client.query(`
        INSERT INTO "Order" ("id", "userId", "status", "itemsPrice", "totalPrice", "updatedAt", "depositAddress")
        SELECT gen_random_uuid(), ${user}, (CASE WHEN g <= ${HISTORY} THEN 'PAID' WHEN g % 2 = 0 THEN 'PAID' ELSE 'UNDERPAID' END)::"OrderStatus", 10, 10, now(), ${address('g')}
        FROM generate_series(1, ${HISTORY + 6}) g`);
      await client.query(`
        INSERT INTO "DepositSweep" ("id", "txHash", "fromAddress", "nonce", "status", "gasLimit", "maxFeePerGasWei", "expectedWei", "feeWei", "sweptWei", "createdAt", "updatedAt")
        SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, '0xc' || lpad(to_hex(g), 63, '0'), '0x' || lpad('5', 40, '0'), g, 'CONFIRMED', 600000, 1, 10, 1, 10,
               now() - interval '700 days' + g * interval '5 hours', now()
        FROM generate_series(1, ${HISTORY / 10}) g`);
      await client.query(`
        INSERT INTO "DepositSweepItem" ("id", "sweepId", "address", "expectedWei", "sweptWei")
        SELECT gen_random_uuid(), ('00000000-0000-4000-8000-' || lpad(to_hex((g - 1) / 10 + 1), 12, '0'))::uuid, ${address('g')}, 1, 1 FROM generate_series(1, ${HISTORY}) g`);
      await client.query(`
        INSERT INTO "Payment" ("id", "txHash", "depositAddress", "sweepId", "source", "status", "amount", "blockNumber", "updatedAt")
        SELECT gen_random_uuid(), '0xd' || lpad(to_hex(g), 63, '0'), ${address('g')},
               CASE WHEN g <= ${HISTORY} THEN ('00000000-0000-4000-8000-' || lpad(to_hex((g - 1) / 10 + 1), 12, '0'))::uuid END,
               'INDEXED', 'COUNTED', 10000000000000000, g, now()
        FROM generate_series(1, ${HISTORY + 6}) g`);
      await client.query('ANALYZE');
    } finally {
      await client.end();
    }
  });
  afterAll(async () => {
    await env?.close();
  });

  it("reads the unswept deposits and the last day's sweeps, never the history of swept ones", async () => {
    const rec = recordingDb(env.config.databaseUrl);
    try {
      // The open work: six unswept deposits, three of them of orders still being paid (UNDERPAID).
      expect((await readCandidates(rec.db, 200)).length).toBe(3);
      expect((await gasSpent(rec.db, '0x' + '5'.padStart(40, '0'), new Date())).usedWei).toBeLessThan(10n);
      expect(await followSweeps({ ...env.runtime, db: rec.db })).toEqual({ confirmed: 0, failed: 0, dropped: 0, waiting: 0, lost: [] });
    } finally {
      await rec.close();
    }
    const reads = await readsOf(env.config.databaseUrl, rec.queries, ['Order', 'Payment', 'DepositSweep', 'DepositSweepItem']);
    expect(reads.length).toBeGreaterThanOrEqual(3);
    expect(reads[0]!.scans.find((x) => x.table === 'Payment')?.index).toBe('x_payment_unswept_deposit');
    const tooMuch = reads.flatMap(({ sql, scans }) => scans.filter((x) => x.rows > 200).map((x) => `${x.node} on ${x.table} (${x.index ?? 'no index'}) read ${x.rows} rows: ${sql}`));
    expect(tooMuch).toEqual([]);
  });
});
