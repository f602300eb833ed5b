import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGwei } from 'viem';
import { createChainClient, indexBlocks, indexerHalt, resumeIndexer, verifyPayment } from '@shop/core';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import { startAnvil } from '../../../scripts/lib/anvil.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

let kit: PaymentKit;
let referrer: TestUser;
let buyer: TestUser;
const payer = ANVIL_ACCOUNTS[4];

beforeAll(async () => {
  kit = await createPaymentKit({ env: { FINALITY_DEPTH: '3' } });
  referrer = await kit.createUser({ name: 'Referrer' });
  buyer = await kit.createUser({ name: 'Buyer', referredById: referrer.id });
  await kit.runIndexer(); // checkpoint at the current head
});
afterAll(async () => {
  await kit?.close();
});

describe('the indexer', () => {
  it('finds a payment nobody reported and pays its order', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    const result = await kit.runIndexer();
    expect(result.transfers.map((t) => t.txHash)).toContain(hash.toLowerCase());
    await kit.waitForStatus(order.id, 'PAID');
    const payment = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
    expect(payment).toMatchObject({ source: 'INDEXED', status: 'COUNTED', orderId: order.id });
    // Scanning again finds nothing new and counts nothing twice.
    const again = await kit.runIndexer();
    expect(again.transfers).toEqual([]);
    expect((await kit.referralEntries(referrer.id)).length).toBe(1);
  });

  it('finds a transaction replaced before mining (same nonce, higher fee) although the reported hash never mines', async () => {
    const order = await kit.placeOrder(buyer);
    await kit.chain.setAutomine(false);
    try {
      const nonce = await kit.chain.wallet.getTransactionCount({ address: payer, blockTag: 'pending' });
      const slow = await kit.chain.send(payer, kit.receiving, order.amountWei, { nonce, maxFeePerGas: parseGwei('2'), maxPriorityFeePerGas: parseGwei('1') });
      expect((await kit.report(buyer, order.id, slow)).status).toBe(202);
      const fast = await kit.chain.send(payer, kit.receiving, order.amountWei, { nonce, maxFeePerGas: parseGwei('50'), maxPriorityFeePerGas: parseGwei('10') });
      await kit.chain.mine(1);
      const result = await kit.runIndexer();
      expect(result.transfers.map((t) => t.txHash)).toContain(fast.toLowerCase());
      await kit.waitForStatus(order.id, 'PAID');
      const counted = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: fast.toLowerCase() } });
      expect(counted.status).toBe('COUNTED');
      const replaced = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: slow.toLowerCase() } });
      expect(replaced.status).toBe('PENDING'); // never mined: it can never count
    } finally {
      await kit.chain.setAutomine(true);
    }
  });

  it('rewinds on a reorg that removes a counted block: the order is unpaid again and the reward reversed once', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    const before = await kit.referralEntries(referrer.id);
    await kit.chain.reorg(1);
    const result = await kit.runIndexer();
    expect(result.reorgDepth).toBeGreaterThan(0);
    expect(result.recheck.map((r) => r.txHash)).toContain(hash.toLowerCase());
    await kit.waitForStatus(order.id, 'VERIFYING');
    const after = await kit.referralEntries(referrer.id);
    const forOrder = after.filter((e) => e.reference?.startsWith(`order:${order.id}`));
    expect(forOrder.map((e) => e.amount.toFixed(2))).toEqual(['2.50', '-2.50']);
    expect(after.length).toBe(before.length + 1);
    const referrerRow = await kit.db.user.findUniqueOrThrow({ where: { id: referrer.id } });
    const sum = after.reduce((s, e) => s + Number(e.amount), 0);
    expect(referrerRow.activeBalance.toFixed(2)).toBe(sum.toFixed(2));
    const stored = await kit.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(stored).toMatchObject({ status: 'VERIFYING', paidAt: null });
    // The same transfer sent again (as a wallet would rebroadcast it) pays the order again, rewarded once more.
    const rebroadcast = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.report(buyer, order.id, rebroadcast);
    await kit.waitForStatus(order.id, 'PAID');
    const final = (await kit.referralEntries(referrer.id)).filter((e) => e.reference?.startsWith(`order:${order.id}`));
    expect(final.map((e) => e.amount.toFixed(2))).toEqual(['2.50', '-2.50', '2.50']);
  });

  it('halts on a node that serves another chain: nothing is unpaid, verification waits, and it resumes once the node is right', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    const other = await startAnvil({ genesisTimestamp: 1 }); // a new chain: another genesis, fewer blocks
    try {
      const wrongNode = { ...kit.workerRuntime, chain: createChainClient(other.rpcUrl), logger: kit.workerRuntime.logger };
      const result = await indexBlocks(wrongNode);
      expect(result.halted).toMatch(/^The node at ETH_RPC_URL follows another chain \(genesis 0x[0-9a-f]{64}\) than the one this shop has indexed/);
      expect(result.recheck).toEqual([]);
      expect((await indexerHalt(kit.db, kit.env.config.chainId))?.reason).toMatch(/nothing was unpaid/);
      // Halted means halted, whichever node the next tick talks to.
      expect((await kit.runIndexer()).halted).toBeTruthy();
      const payment = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
      expect(payment.status).toBe('COUNTED');
      expect(await kit.orderStatus(order.id)).toBe('PAID');
      const verify = await verifyPayment({ ...wrongNode, currentAnswer: async () => 1n }, payment.id);
      expect(verify).toMatchObject({ state: 'wait', reason: expect.stringMatching(/^verification halted: /) });
    } finally {
      await other.stop();
    }
    expect(await resumeIndexer(kit.db, kit.env.config.chainId)).toBe(true);
    const resumed = await kit.runIndexer();
    expect(resumed.halted).toBeUndefined();
    expect(await kit.orderStatus(order.id)).toBe('PAID');
  });

  it('halts on a rewind deeper than FINALITY_DEPTH instead of unpaying; an operator can accept it once', async () => {
    const order = await kit.placeOrder(buyer);
    await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.chain.mine(3);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    await kit.chain.reorg(5); // FINALITY_DEPTH is 3 in this file
    const result = await kit.runIndexer();
    expect(result.halted).toMatch(/a rewind deeper than FINALITY_DEPTH \(3 blocks\)/);
    expect(result.recheck).toEqual([]);
    expect(await kit.orderStatus(order.id)).toBe('PAID');

    await resumeIndexer(kit.db, kit.env.config.chainId, { acceptReorg: true });
    const accepted = await kit.runIndexer();
    expect(accepted.reorgDepth).toBeGreaterThan(3);
    await kit.waitForStatus(order.id, 'VERIFYING');
    // Accepted once: the flag does not outlive that rewind.
    expect((await kit.db.chainCursor.findFirstOrThrow()).acceptDeepRewind).toBe(false);
  });
});
