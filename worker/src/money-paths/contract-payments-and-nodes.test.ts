import { createPublicClient, custom, encodeFunctionData, hexToBigInt, http, type Hex, type PublicClient } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createTracer, reconcile, SEVERAL_CALLS, UNTRACEABLE, verifyPayment } from '@shop/core';
import { claimMessage } from '@shop/core/contract';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import { deployOddPayer, deploySmartWallet } from '../../../scripts/testing/smart-wallet.ts';
import { createApp } from '../../../api/src/app.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * The edges of paying through contracts, each found by a hostile review and failing
 * before its fix: traces that show value that never moved, batches, nodes that lost old
 * state or cannot trace, the verifier and the indexer seeing a block differently,
 * re-mined internal payments, the shop's own transactions, and claims when the node
 * fails. The books are proven when each kit closes.
 */
const payer = ANVIL_ACCOUNTS[5];
const answer = async () => 300_000_000_000n; // $3000, the kit's feed

/**
 * A geth-like full node: the state of blocks below `prunedBelow` is gone (balances and
 * debug traces of them are refused as geth refuses them), and it has no trace_ namespace.
 */
function prunedNode(rpcUrl: string, prunedBelow: () => bigint): PublicClient {
  const node = createPublicClient({ chain: mainnet, transport: http(rpcUrl) });
  const failure = (message: string, code = -32000) => Object.assign(new Error(message), { code });
  const heightOf = async (ref: unknown): Promise<bigint> => {
    if (typeof ref === 'string') return hexToBigInt(ref as Hex);
    const hash = (ref as { blockHash: Hex }).blockHash;
    return (await node.getBlock({ blockHash: hash })).number;
  };
  return createPublicClient({
    chain: mainnet,
    transport: custom({
      async request({ method, params }) {
        const p = params as unknown[];
        if (method === 'eth_getBalance' && (await heightOf(p[1])) < prunedBelow()) throw failure('missing trie node 1f6c0e2a (path ) <nil>');
        if (method === 'debug_traceBlockByHash' && (await heightOf({ blockHash: p[0] })) < prunedBelow()) throw failure('historical state not available in path scheme yet');
        if (method.startsWith('trace_')) throw failure(`the method ${method} does not exist/is not available`, -32601);
        return node.request({ method, params } as never);
      },
    }),
  }) as PublicClient;
}

for (const mode of ['debug', 'parity'] as const) {
  describe(`a call that shows value in a trace but moves none (CHAIN_TRACING=${mode})`, () => {
    let kit: PaymentKit;
    let buyer: TestUser;
    beforeAll(async () => {
      kit = await createPaymentKit({ env: { CHAIN_TRACING: mode } });
      buyer = await kit.createUser({ name: 'Tricky' });
      await kit.runIndexer();
    });
    afterAll(async () => {
      await kit?.close();
    });

    for (const fn of ['viaCallcode', 'viaDelegatecall'] as const) {
      it(`${fn} into the shop's address pays nothing, reported or not`, async () => {
        const odd = await deployOddPayer(kit.env.anvil!.rpcUrl, ANVIL_ACCOUNTS[6]);
        const order = await kit.placeOrder(buyer);
        const before = await kit.chain.wallet.getBalance({ address: kit.receiving });
        const hash = await odd.call(fn, [kit.receiving], order.amountWei);
        expect(await kit.chain.wallet.getBalance({ address: kit.receiving })).toBe(before);
        expect((await kit.report(buyer, order.id, hash)).status).toBe(202);
        const payment = await kit.waitForPayment(hash, ['COUNTED', 'REJECTED', 'UNRESOLVED', 'LATE']);
        expect(payment.status).toBe('REJECTED');
        await kit.runIndexer();
        expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
        expect(await kit.db.payment.count({ where: { source: 'INFLOW' } })).toBe(0);
      });
    }
  });
}

describe('a batch: one transaction paying the shop twice', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit();
    buyer = await kit.createUser({ name: 'Batcher' });
    admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('is never attributed by the sum of its tags: it waits for an admin, and no order is paid by it', async () => {
    const odd = await deployOddPayer(kit.env.anvil!.rpcUrl, payer);
    const a = await kit.placeOrder(buyer);
    const b = await kit.placeOrder(buyer);
    const hash = await odd.call('batch', [kit.receiving, a.amountWei, b.amountWei], a.amountWei + b.amountWei);
    await kit.runIndexer();
    const payment = await kit.waitForPayment(hash, ['UNRESOLVED', 'COUNTED', 'LATE']);
    expect(payment).toMatchObject({ status: 'UNRESOLVED', reason: SEVERAL_CALLS, viaContract: true });
    expect(payment.amount?.toFixed(0)).toBe((a.amountWei + b.amountWei).toString());
    expect([await kit.orderStatus(a.id), await kit.orderStatus(b.id)]).toEqual(['PENDING_PAYMENT', 'PENDING_PAYMENT']);
    // Nobody paid it alone: no refund to "the sender" by default, an admin names the wallet.
    expect((await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({})).status).toBe(409);
    // (Not `payer`: anvil's account #5 is the development shop's payout wallet, which no payout may go to.)
    expect((await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({ wallet: ANVIL_ACCOUNTS[3] })).status).toBe(201);
  });
});

describe('a node that no longer keeps the state of old blocks (a pruned geth)', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  let pruneBelow = 0n;
  beforeAll(async () => {
    kit = await createPaymentKit();
    buyer = await kit.createUser({ name: 'Safe owner' });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('does not switch tracing off for good: a smart wallet paying in a recent block is found', async () => {
    const node = prunedNode(kit.env.anvil!.rpcUrl, () => pruneBelow);
    const tracer = createTracer(node, 'auto');
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, payer);
    await kit.chain.mine(3); // blocks a worker that was down has to catch up on...
    pruneBelow = (await kit.chain.blockNumber()) + 1n; // ...whose state is gone by then
    await kit.runIndexer({ chain: node, tracer });
    const order = await kit.placeOrder(buyer);
    const hash = await wallet.pay(kit.receiving, order.amountWei);
    const result = await kit.runIndexer({ chain: node, tracer });
    expect(result.transfers.map((t) => t.txHash)).toContain(hash.toLowerCase());
    await kit.waitForStatus(order.id, 'PAID');
  });

  it('does not stall the indexer on a block whose state is gone: later payments are still found', async () => {
    const node = prunedNode(kit.env.anvil!.rpcUrl, () => pruneBelow);
    const tracer = createTracer(node, 'auto');
    await tracer.block(await kit.chain.wallet.getBlock(), kit.receiving); // it has traced before
    await kit.chain.mine(3);
    pruneBelow = (await kit.chain.blockNumber()) + 1n;
    await kit.runIndexer({ chain: node, tracer });
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(ANVIL_ACCOUNTS[4], kit.receiving, order.amountWei);
    const result = await kit.runIndexer({ chain: node, tracer });
    expect(result.transfers.map((t) => t.txHash)).toContain(hash.toLowerCase());
    await kit.waitForStatus(order.id, 'PAID');
  });
});

describe('the verifier and the indexer seeing a block differently (a node that gains tracing, workers on different nodes)', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit({ workers: false });
    buyer = await kit.createUser({ name: 'Safe owner' });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });
  const noTracing = () => ({ ...kit.workerRuntime, tracer: createTracer(kit.workerRuntime.chain, 'off'), currentAnswer: answer });
  const tracing = () => ({ ...kit.workerRuntime, currentAnswer: answer });

  it('a report rejected while the node could not trace is reopened when the indexer traces it, and pays its order', async () => {
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, payer);
    const order = await kit.placeOrder(buyer);
    const hash = await wallet.pay(kit.receiving, order.amountWei);
    await kit.report(buyer, order.id, hash);
    const row = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
    expect(await verifyPayment(noTracing(), row.id)).toMatchObject({ status: 'REJECTED', reason: UNTRACEABLE });
    const found = await kit.runIndexer();
    // Handed on to be verified again, with a fresh job (its first one is done).
    expect(found.recheck.map((t) => t.paymentId)).toContain(row.id);
    expect(await verifyPayment(tracing(), row.id)).toMatchObject({ status: 'COUNTED', orderId: order.id });
    expect(await kit.orderStatus(order.id)).toBe('PAID');
  });

  it('an inflow recorded while the block could not be traced is explained by the transfer traced later: never both', async () => {
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, payer);
    const order = await kit.placeOrder(buyer);
    const hash = await wallet.pay(kit.receiving, order.amountWei);
    await kit.runIndexer({ tracer: createTracer(kit.workerRuntime.chain, 'off') });
    const inflow = await kit.db.payment.findFirstOrThrow({ where: { source: 'INFLOW', status: 'UNRESOLVED' } });
    expect(inflow.amount?.toFixed(0)).toBe(order.amountWei.toString());
    await kit.report(buyer, order.id, hash);
    const row = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
    expect(await verifyPayment(tracing(), row.id)).toMatchObject({ status: 'COUNTED' });
    expect(await kit.db.payment.findUnique({ where: { id: inflow.id } })).toBeNull();
    expect((await reconcile(kit.workerRuntime)).discrepancies).toEqual([]);
  });

  it('and the other way round: a transfer traced first takes its value out of the inflow the block gets later', async () => {
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, payer);
    await kit.runIndexer();
    const order = await kit.placeOrder(buyer);
    const hash = await wallet.pay(kit.receiving, order.amountWei);
    // The indexer that cannot trace measures this very transfer as the block's inflow.
    await kit.report(buyer, order.id, hash);
    const row = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
    expect(await verifyPayment(tracing(), row.id)).toMatchObject({ status: 'COUNTED' });
    await kit.runIndexer({ tracer: createTracer(kit.workerRuntime.chain, 'off') });
    const receipt = await kit.chain.wallet.getTransactionReceipt({ hash });
    expect(await kit.db.payment.count({ where: { source: 'INFLOW', blockHash: receipt.blockHash } })).toBe(0);
    expect((await reconcile(kit.workerRuntime)).discrepancies).toEqual([]);
  });

  it('a counted transfer through a contract is left as it is by a recheck on a node that cannot trace it', async () => {
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, payer);
    await kit.runIndexer();
    const order = await kit.placeOrder(buyer);
    const hash = await wallet.pay(kit.receiving, order.amountWei);
    await kit.report(buyer, order.id, hash);
    const row = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
    await verifyPayment(tracing(), row.id);
    expect(await kit.orderStatus(order.id)).toBe('PAID');
    expect(await verifyPayment(noTracing(), row.id)).toMatchObject({ state: 'final', status: 'COUNTED' });
    expect((await kit.db.payment.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('COUNTED');
    expect(await kit.orderStatus(order.id)).toBe('PAID');
  });
});

describe('a transfer through a contract mined again by a reorganization', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit();
    buyer = await kit.createUser({ name: 'Sweeper' });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('delivering less than before leaves its order: the order is not kept PAID on value that did not arrive', async () => {
    const odd = await deployOddPayer(kit.env.anvil!.rpcUrl, payer);
    const order = await kit.placeOrder(buyer);
    await kit.chain.sendAndWait(payer, odd.address, order.amountWei); // the contract holds exactly the amount
    await kit.runIndexer();
    const sweep = await odd.call('sweep', [kit.receiving]);
    const raw = (await kit.chain.test.request({ method: 'eth_getRawTransactionByHash' as never, params: [sweep] as never })) as Hex;
    await kit.chain.mine(1);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    // The new chain: someone takes half the contract's balance before the same sweep runs.
    const take = { from: ANVIL_ACCOUNTS[6], to: odd.address, data: encodeFunctionData({ abi: odd.abi, functionName: 'take', args: [order.amountWei / 2n] }), gas: '0x30d40' };
    await kit.chain.test.request({ method: 'anvil_reorg' as never, params: [2, [[take, 0], [raw, 1]]] as never });
    await kit.runIndexer();
    const payment = await kit.waitForPayment(sweep, ['UNRESOLVED', 'LATE']);
    expect(payment.amount?.toFixed(0)).toBe((order.amountWei - order.amountWei / 2n).toString());
    expect(await kit.orderStatus(order.id)).not.toBe('PAID');
  });
});

describe("the shop's own transactions", () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit();
    buyer = await kit.createUser({ name: 'Buyer' });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('never pay an order, even carrying its tag', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(kit.receiving, kit.receiving, order.amountWei);
    await kit.runIndexer();
    expect(await kit.db.payment.count({ where: { txHash: hash.toLowerCase() } })).toBe(0);
    await kit.report(buyer, order.id, hash);
    const payment = await kit.waitForPayment(hash, ['REJECTED', 'COUNTED']);
    expect(payment.reason).toBe("Sent by the shop's own address: its own money, not a payment");
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
  });
});

describe('inflows and claims at the edges', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit({ env: { CHAIN_TRACING: 'off', PAYMENT_CONFIRMATIONS: '3' } });
    buyer = await kit.createUser({ name: 'Buyer' });
    admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('an inflow is refunded only once its block has its confirmations', async () => {
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, payer);
    await kit.runIndexer();
    const hash = await wallet.pay(kit.receiving, 10n ** 15n);
    await kit.runIndexer();
    const receipt = await kit.chain.wallet.getTransactionReceipt({ hash });
    const inflow = await kit.db.payment.findFirstOrThrow({ where: { source: 'INFLOW', blockHash: receipt.blockHash } });
    const refund = (body: object) => kit.as(admin).then((a) => a.post(`/api/admin/payments/${inflow.id}/refund`).send(body));
    const early = await refund({ wallet: ANVIL_ACCOUNTS[2] });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Its block has 1 of 3 confirmations: refund it once the block is final');
    await kit.chain.mine(2);
    // No transaction shows who sent it: the admin names the wallet.
    const unnamed = await refund({});
    expect(unnamed.status).toBe(409);
    expect(unnamed.body.message).toBe('No transaction shows who sent this ETH: name the wallet to refund');
    expect((await refund({ wallet: ANVIL_ACCOUNTS[2] })).status).toBe(201);
  });

  it('a claim whose signature cannot be checked because the node is down answers 503, not a refusal', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(ANVIL_ACCOUNTS[4], kit.receiving, 10n ** 16n);
    await kit.chain.mine(2);
    await kit.runIndexer();
    await kit.waitForPayment(hash, ['UNRESOLVED']);
    const signature = await kit.chain.wallet.signMessage({ account: ANVIL_ACCOUNTS[4], message: claimMessage(order.id, hash) });
    // The api as it runs, but its node is unreachable.
    const down = createPublicClient({ chain: mainnet, transport: http('http://127.0.0.1:9', { retryCount: 0, timeout: 2_000 }) }) as PublicClient;
    const api = createApp({ ...kit.env.runtime, chain: down, tracer: createTracer(down, 'auto') });
    const refused = await request(api).put(`/api/orders/${order.id}/claim`).set('Cookie', await kit.cookieFor(buyer)).send({ txHash: hash, signature });
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(/try again/);
    expect((await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } })).status).toBe('UNRESOLVED');
    // With the node back, the same signature pays the order.
    const res = await (await kit.as(buyer)).put(`/api/orders/${order.id}/claim`).send({ txHash: hash, signature });
    expect(res.status).toBe(200);
    expect(await kit.orderStatus(order.id)).toBe('PAID');
  });
});
