import { createPublicClient, custom, http, type PublicClient } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTracer } from '@shop/core';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import { deploySmartWallet } from '../../../scripts/testing/smart-wallet.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Payments from smart-contract wallets: the ETH reaches the receiving address through
 * an internal call of the wallet, so the transaction's top-level recipient is the
 * wallet. The indexer notices the balance change no plain transfer explains and reads
 * the block's traces; a reported hash is traced directly.
 */
const owner = ANVIL_ACCOUNTS[5];

describe('a smart-contract wallet (the node traces)', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  let wallet: Awaited<ReturnType<typeof deploySmartWallet>>;
  beforeAll(async () => {
    kit = await createPaymentKit();
    buyer = await kit.createUser({ name: 'Safe owner' });
    wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, owner);
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('pays an order nobody reported: the indexer finds the internal transfer and attributes it by its tag', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await wallet.pay(kit.receiving, order.amountWei);
    const result = await kit.runIndexer();
    expect(result.transfers.map((t) => t.txHash)).toContain(hash.toLowerCase());
    await kit.waitForStatus(order.id, 'PAID');
    const payment = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
    expect(payment).toMatchObject({ status: 'COUNTED', source: 'INDEXED', fromAddress: wallet.address.toLowerCase(), orderId: order.id });
    expect(payment.amount?.toFixed(0)).toBe(order.amountWei.toString());
  });

  it('pays an order whose buyer reported the hash: the verifier traces the transaction', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await wallet.forward(kit.receiving, order.amountWei);
    expect((await kit.report(buyer, order.id, hash)).status).toBe(202);
    await kit.waitForStatus(order.id, 'PAID');
    expect((await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } })).fromAddress).toBe(wallet.address.toLowerCase());
    // Indexing the block afterwards finds the same transfer: counted once.
    await kit.runIndexer();
    expect((await kit.db.order.findUniqueOrThrow({ where: { id: order.id } })).paidVersion).toBe(1);
  });
});

describe('a smart-contract wallet, on a node that cannot trace', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  let admin: TestUser;
  let wallet: Awaited<ReturnType<typeof deploySmartWallet>>;
  beforeAll(async () => {
    kit = await createPaymentKit({ env: { CHAIN_TRACING: 'off' } });
    buyer = await kit.createUser({ name: 'Safe owner' });
    admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, owner);
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('records the ETH no transaction explains as an unresolved inflow with its block and amount, for an admin to refund', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await wallet.pay(kit.receiving, order.amountWei);
    const receipt = await kit.chain.wallet.getTransactionReceipt({ hash });
    await kit.report(buyer, order.id, hash);
    await kit.runIndexer();
    const reported = await kit.waitForPayment(hash, ['REJECTED']);
    expect(reported.reason).toMatch(/cannot trace/);
    const inflow = await kit.db.payment.findFirstOrThrow({ where: { source: 'INFLOW' } });
    expect(inflow).toMatchObject({ status: 'UNRESOLVED', blockNumber: receipt.blockNumber, blockHash: receipt.blockHash });
    expect(inflow.amount?.toFixed(0)).toBe(order.amountWei.toString());
    const asAdmin = await kit.as(admin);
    const listed = (await asAdmin.get('/api/admin/payments')).body as { _id: string; source: string; valueWei: string }[];
    expect(listed).toContainEqual(expect.objectContaining({ _id: inflow.id, source: 'INFLOW', valueWei: order.amountWei.toString() }));
    const assign = await asAdmin.post(`/api/admin/payments/${inflow.id}/assign`).send({ orderId: order.id });
    expect(assign.status).toBe(409);
    expect(assign.body.message).toMatch(/refund it/);
    // No transaction shows who sent it: the admin names the wallet the refund goes to.
    expect((await asAdmin.post(`/api/admin/payments/${inflow.id}/refund`).send({ wallet: ANVIL_ACCOUNTS[2] })).status).toBe(201);
  });
});

describe('a smart-contract wallet, on a node that no longer serves the state of past blocks', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  let wallet: Awaited<ReturnType<typeof deploySmartWallet>>;
  // A pruned full node (or a catching-up indexer far behind the head): eth_getBalance at
  // a past block answers 'missing trie node'; everything else is served.
  let pruned: PublicClient;
  beforeAll(async () => {
    kit = await createPaymentKit();
    buyer = await kit.createUser({ name: 'Safe owner' });
    wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, owner);
    await kit.runIndexer();
    const node = createPublicClient({ chain: mainnet, transport: http(kit.env.anvil!.rpcUrl) });
    pruned = createPublicClient({
      chain: mainnet,
      transport: custom({
        async request({ method, params }) {
          if (method === 'eth_getBalance') throw new Error('missing trie node 5f0e0b… (path ) state is not available');
          return node.request({ method, params } as never);
        },
      }),
    });
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('still finds a payment through an internal call: without balances it reads every block\'s traces', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await wallet.pay(kit.receiving, order.amountWei);
    const result = await kit.runIndexer({ chain: pruned, tracer: createTracer(pruned, 'auto') });
    expect(result.transfers.map((t) => t.txHash)).toContain(hash.toLowerCase());
    await kit.waitForStatus(order.id, 'PAID');
  });
});
