import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haltFollowing, reconcile, resumeIndexer, runDepositSweeper, runReconciliation, type Runtime } from '@shop/core';
import type { Address, Hash, Hex, PublicClient } from 'viem';
import { depositFactoryAbi } from '../../../core/src/deposits/abi.ts';
import { depositAddressOf, depositSalt } from '../../../core/src/deposits/addresses.ts';
import { DEV_SWEEPER_PRIVATE_KEY } from '../../../scripts/lib/dev-chain.ts';
import { REPO_ROOT } from '../../../scripts/lib/paths.ts';
import { compileSolidity } from '../../../scripts/lib/solidity.ts';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { deployBatchSender } from '../testing/batch-sender.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Several flushes of one deposit address, and sweeps the node cannot trace (a fifth hostile
 * review): every flush of an address is recorded and confirmed in order, so the same ETH is
 * never both counted and refundable; a sweep that cannot be traced waits without stopping
 * the others; a sweep's items are only the shop's factory's addresses; an address a
 * stranger flushed is not swept before that flush is recorded.
 */
const exchange = ANVIL_ACCOUNTS[4];
const stranger = ANVIL_ACCOUNTS[6];
const DAY = 24 * 3600_000;

let kit: PaymentKit;
let buyer: TestUser;
let factory: Address;

beforeAll(async () => {
  kit = await createPaymentKit({ env: { SWEEPER_PRIVATE_KEY: DEV_SWEEPER_PRIVATE_KEY } });
  factory = kit.env.config.depositFactoryAddress as Address;
  buyer = await kit.createUser({ name: 'Buyer' });
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.close();
});

const strangerSweep = async (orderId: string, opts: { wait?: boolean } = {}): Promise<Hash> => {
  const hash = await kit.chain.wallet.writeContract({ account: stranger, address: factory, abi: depositFactoryAbi, functionName: 'sweep', args: [[depositSalt(orderId)]], chain: null, gas: 300_000n });
  if (opts.wait !== false) await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return hash;
};

async function paidOrder(opts: { old?: boolean } = {}) {
  const order = await kit.placeOrder(buyer);
  await kit.chain.sendAndWait(exchange, order.depositAddress, order.amountWei);
  await kit.runIndexer();
  await kit.waitForStatus(order.id, 'PAID');
  if (opts.old) await kit.db.order.update({ where: { id: order.id }, data: { paymentDeadline: new Date(Date.now() - 2 * DAY) } });
  return order;
}

async function sweeperRuns(deps: Runtime, n: number) {
  const runs = [];
  for (let i = 0; i < n; i++) {
    runs.push(await runDepositSweeper(deps));
    await kit.chain.mine(2);
    await kit.runIndexer();
  }
  return runs;
}

const findingsOn = async (...ids: string[]) =>
  (await reconcile(kit.workerRuntime, { blockWindow: 'all' })).discrepancies.filter((d) => Object.values(d.ids ?? {}).some((v) => ids.includes(v)));

/** Its deposits and inflows: [source, value, swept by] each. */
const booksAt = async (address: string) =>
  (await kit.db.payment.findMany({ where: { depositAddress: address }, orderBy: { blockNumber: 'asc' }, include: { sweep: { select: { txHash: true } } } })).map((p) => [p.source, p.amount?.toFixed(0), p.sweep?.txHash ?? null]);

/** A client like `chain` whose `method` throws `err` while `when` says so. */
function failing<K extends keyof PublicClient>(chain: PublicClient, method: K, when: (args: unknown) => boolean, err: Error): PublicClient {
  return new Proxy(chain, {
    get(target, prop, receiver) {
      const real = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== method || typeof real !== 'function') return real;
      return (args: unknown) => (when(args) ? Promise.reject(err) : (real as (a: unknown) => Promise<unknown>).call(target, args));
    },
  });
}

describe('an address flushed twice before the shop looked (HIGH 1)', () => {
  it("dust swept by the buyer, then the price sent and flushed in one block: both flushes are recorded and confirmed in order, every deposit marked by the flush that moved it, nothing refundable", async () => {
    const order = await kit.placeOrder(buyer);
    const a = order.depositAddress;
    await kit.chain.sendAndWait(stranger, a, 1n); // D: dust, the order still waits for payment
    await kit.runIndexer();
    const t1 = await strangerSweep(order.id); // moves D
    await kit.chain.setAutomine(false);
    let t2: Hash;
    let t3: Hash;
    try {
      t2 = await kit.chain.wallet.sendTransaction({ account: stranger, to: a, value: order.amountWei, chain: null });
      t3 = await strangerSweep(order.id, { wait: false });
      await kit.chain.mine(1);
    } finally {
      await kit.chain.setAutomine(true);
    }
    const [r2, r3] = await Promise.all([t2!, t3!].map((hash) => kit.chain.wallet.getTransactionReceipt({ hash })));
    expect(r2!.blockNumber, 'the price and its flush share a block').toBe(r3!.blockNumber);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    await kit.chain.mine(2);
    await kit.runIndexer();
    await sweeperRuns(kit.workerRuntime, 3);
    const sweeps = await kit.db.depositSweep.findMany({ where: { txHash: { in: [t1, t3!].map((h) => h.toLowerCase()) } } });
    expect(sweeps.map((s) => [s.txHash, s.status]).sort()).toEqual([[t1.toLowerCase(), 'CONFIRMED'], [t3!.toLowerCase(), 'CONFIRMED']].sort());
    expect(await booksAt(a), 'D moved by T1, the price by T3, no inflow').toEqual([
      ['INDEXED', '1', t1.toLowerCase()],
      ['INDEXED', order.amountWei.toString(), t3!.toLowerCase()],
    ]);
    expect(await findingsOn(a, order.id)).toEqual([]);
  });
});

describe('a sweep whose trace the node cannot serve (HIGH 2)', () => {
  it("the trace failing ('historical state unavailable'): the sweep is proven by the receiving address's balance instead, and the run still sends new sweeps", async () => {
    const flushed = await paidOrder();
    const t = await strangerSweep(flushed.id);
    await kit.chain.mine(2);
    await kit.runIndexer();
    await sweeperRuns(kit.workerRuntime, 1); // records the stranger's sweep, SENT
    expect((await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: t.toLowerCase() } })).status).toBe('SENT');
    const waiting = await paidOrder({ old: true });
    const tracer = kit.workerRuntime.tracer;
    const broken: Runtime = {
      ...kit.workerRuntime,
      tracer: { ...tracer, transaction: (hash, to) => (hash.toLowerCase() === t.toLowerCase() ? Promise.reject(new Error('historical state unavailable for block')) : tracer.transaction(hash, to)) },
    };
    const [first] = await sweeperRuns(broken, 2);
    expect(first!.state, 'the run goes on to sweep').toBe('sent');
    expect((await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: t.toLowerCase() } })).status).toBe('CONFIRMED');
    expect((await booksAt(waiting.depositAddress)).map((p) => p[2])).toEqual([first!.sent!.txHash.toLowerCase()]);
    expect(await findingsOn(flushed.depositAddress, waiting.depositAddress)).toEqual([]);
  });

  it('reading the sweep failing altogether: it waits, counted as waiting, while the others are followed and new ones sent', async () => {
    const flushed = await paidOrder();
    const t = await strangerSweep(flushed.id);
    await kit.chain.mine(2);
    await kit.runIndexer();
    await sweeperRuns(kit.workerRuntime, 1);
    const waiting = await paidOrder({ old: true });
    const isT = (args: unknown) => (args as { hash?: string }).hash?.toLowerCase() === t.toLowerCase();
    const broken: Runtime = { ...kit.workerRuntime, chain: failing(kit.workerRuntime.chain, 'getTransactionReceipt', isT, new Error('header not found')) };
    const [first, second] = await sweeperRuns(broken, 2);
    expect(first!.state).toBe('sent');
    expect(second!.followed.confirmed, 'the new sweep is followed to CONFIRMED').toBeGreaterThanOrEqual(1);
    expect(second!.followed.waiting).toBeGreaterThanOrEqual(1);
    expect((await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: t.toLowerCase() } })).status).toBe('SENT');
    expect((await booksAt(waiting.depositAddress)).map((p) => p[2])).toEqual([first!.sent!.txHash.toLowerCase()]);
    await sweeperRuns(kit.workerRuntime, 1); // the node serves it again
    expect((await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: t.toLowerCase() } })).status).toBe('CONFIRMED');
    expect(await findingsOn(flushed.depositAddress, waiting.depositAddress)).toEqual([]);
  });
});

describe("a flush of another factory's address in the same transaction (MEDIUM 4)", () => {
  it("a transaction sweeping the shop's address and a look-alike's: the sweep holds only the shop's address, and is confirmed", async () => {
    const lookAlike = await compileSolidity(path.join(REPO_ROOT, 'scripts/testing/look-alike-factory.sol'), 'LookAlikeFactory');
    const both = await compileSolidity(path.join(REPO_ROOT, 'scripts/testing/two-factory-sweep.sol'), 'TwoFactorySweep');
    const thief = '0x000000000000000000000000000000000000bEEF' as Address;
    const deploy = async (c: typeof both, args: unknown[] = []) => {
      const hash = await kit.chain.wallet.deployContract({ abi: c.abi, bytecode: c.bytecode as Hex, args, account: stranger, chain: null });
      return (await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 })).contractAddress as Address;
    };
    const lookAlikeAt = await deploy(lookAlike, [kit.receiving, thief, '0x']);
    const bothAt = await deploy(both);
    const genuine = await paidOrder();
    // An order the look-alike's address was given (an order placed under an earlier factory setting).
    const other = await kit.placeOrder(buyer);
    const l = depositAddressOf(lookAlikeAt, other.id).toLowerCase() as Address;
    // Its watch over, ETH reaches it through a contract, unseen: the look-alike's flush takes it (the books lose nothing they held).
    await kit.db.order.update({ where: { id: other.id }, data: { depositAddress: l, paymentDeadline: new Date(Date.now() - 2 * DAY) } });
    await (await deployBatchSender(kit, exchange))([l], [other.amountWei]);
    const hash = await kit.chain.wallet.writeContract({
      account: stranger, address: bothAt, abi: both.abi, functionName: 'sweepBoth', args: [factory, depositSalt(genuine.id), lookAlikeAt, depositSalt(other.id)], chain: null, gas: 600_000n,
    });
    await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await kit.chain.mine(2);
    await kit.runIndexer();
    await sweeperRuns(kit.workerRuntime, 2);
    const sweep = await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: hash.toLowerCase() }, include: { items: true } });
    expect({ status: sweep.status, items: sweep.items.map((i) => i.address) }).toEqual({ status: 'CONFIRMED', items: [genuine.depositAddress.toLowerCase()] });
    expect(await findingsOn(genuine.depositAddress)).toEqual([]);
  });
});

describe("an address a stranger flushed, its flush not recorded yet (LOW 5)", () => {
  it('holding a little more than its deposits after the flush (under the recording floor): not swept until the flush is recorded; then nothing of the deposit is lost', async () => {
    const batch = await deployBatchSender(kit, exchange);
    const order = await paidOrder({ old: true });
    const d = order.amountWei;
    const t = await strangerSweep(order.id);
    const u = d + 10n ** 9n; // arrives through a contract unseen: U - D under the floor
    await batch([order.depositAddress], [u]);
    await kit.chain.mine(2);
    await kit.runIndexer();
    // The node refuses the adoption's search for Flushed events once (a node that limits eth_getLogs).
    let refused = 0;
    const once = (args: unknown) => (args as { address?: string }).address?.toLowerCase() === order.depositAddress.toLowerCase() && refused++ === 0;
    const limited: Runtime = { ...kit.workerRuntime, chain: failing(kit.workerRuntime.chain, 'getLogs', once, new Error('query limit exceeded')) };
    const [run] = await sweeperRuns(limited, 1);
    expect(refused, "the adoption's search was refused").toBeGreaterThan(0);
    expect(run!.sent?.txHash ?? null, "the address is not swept before the stranger's flush is recorded").toBeNull();
    await sweeperRuns(kit.workerRuntime, 4);
    expect(await kit.chain.wallet.getBalance({ address: order.depositAddress })).toBe(0n);
    const inflows = (await booksAt(order.depositAddress)).filter((p) => p[0] === 'INFLOW').reduce((s, p) => s + BigInt(p[1] as string), 0n);
    expect(inflows, 'all of U is the order inflow').toBe(u);
    expect((await kit.db.depositSweep.findUniqueOrThrow({ where: { txHash: t.toLowerCase() } })).status).toBe('CONFIRMED');
    expect(await findingsOn(order.depositAddress)).toEqual([]);
  });
});

describe('refunding an inflow at a deposit address checks its books then (MEDIUM 3)', () => {
  it("refused while indexing is halted, and while the address holds less than recorded, though the reconciler's latest run was clean; not for a surplus", async () => {
    const batch = await deployBatchSender(kit, exchange);
    const order = await paidOrder({ old: true });
    await batch([order.depositAddress], [2n * 10n ** 15n]); // unseen by the indexer (its watch is over)
    await kit.runIndexer();
    await runDepositSweeper(kit.workerRuntime); // records it as the order's inflow
    const inflow = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: order.depositAddress, source: 'INFLOW' } });
    await runReconciliation(kit.workerRuntime, { blockWindow: 'all' });
    const admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    const refund = async () => (await kit.as(admin)).post(`/api/admin/payments/${inflow.id}/refund`).send({ wallet: ANVIL_ACCOUNTS[7] });
    await haltFollowing(kit.workerRuntime, 'a test halts it');
    try {
      const halted = await refund();
      expect([halted.status, halted.body.message]).toEqual([409, expect.stringMatching(/halted/)]);
    } finally {
      await resumeIndexer(kit.db, kit.env.config.chainId);
    }
    // Less at the address than its books (what ETH recorded twice looks like; set by hand
    // here): refused, though the reconciler's latest run was clean.
    const held = await kit.chain.wallet.getBalance({ address: order.depositAddress });
    await kit.chain.test.setBalance({ address: order.depositAddress, value: held - 1n });
    await kit.chain.mine(1);
    await kit.runIndexer();
    const short = await refund();
    expect([short.status, short.body.message]).toEqual([409, expect.stringMatching(/is not there/)]);
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: inflow.id } })).status).toBe('UNRESOLVED');
    await kit.chain.test.setBalance({ address: order.depositAddress, value: held });
    await kit.chain.mine(1);
    await kit.runIndexer();
    // More arrives unseen: a surplus cannot make this ETH count twice (and anyone can send
    // one), so it holds nothing up.
    await batch([order.depositAddress], [3n * 10n ** 15n]);
    await kit.chain.mine(2);
    await kit.runIndexer();
    expect((await refund()).status).toBe(201);
    await runDepositSweeper(kit.workerRuntime); // records the rest as the order's inflow
    await sweeperRuns(kit.workerRuntime, 2);
    expect(await findingsOn(order.depositAddress)).toEqual([]);
  });
});
