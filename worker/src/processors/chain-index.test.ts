import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGwei } from 'viem';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

let kit: PaymentKit;
let referrer: TestUser;
let buyer: TestUser;
const payer = ANVIL_ACCOUNTS[4];

beforeAll(async () => {
  kit = await createPaymentKit();
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
    const payment = await kit.db.payment.findUniqueOrThrow({ where: { txHash: hash.toLowerCase() } });
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
      const counted = await kit.db.payment.findUniqueOrThrow({ where: { txHash: fast.toLowerCase() } });
      expect(counted.status).toBe('COUNTED');
      const replaced = await kit.db.payment.findUniqueOrThrow({ where: { txHash: slow.toLowerCase() } });
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
});
