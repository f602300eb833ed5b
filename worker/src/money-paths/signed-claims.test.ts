import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIds } from '@shop/core';
import { claimMessage } from '@shop/core/contract';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import { deploySmartWallet } from '../../../scripts/testing/smart-wallet.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * A buyer claims a transfer that lost its tag (an exchange rounded the amount) by signing
 * a message with the address that sent it; the claim then follows the rules of an
 * admin's assignment.
 */
const sender = ANVIL_ACCOUNTS[4];
const stranger = ANVIL_ACCOUNTS[6];
const ROUND = 10n ** 16n; // 0.01 ETH = $30 at $3000: no tag in its digits

let kit: PaymentKit;
let buyer: TestUser;
beforeAll(async () => {
  kit = await createPaymentKit();
  buyer = await kit.createUser({ name: 'Claimer' });
});
afterAll(async () => {
  await kit?.close();
});

const sign = (account: `0x${string}`, orderId: string, txHash: string) =>
  kit.chain.wallet.signMessage({ account, message: claimMessage(orderId, txHash) });
const claim = async (user: TestUser, orderId: string, txHash: string, signature: string) =>
  (await kit.as(user)).put(`/api/orders/${orderId}/claim`).send({ txHash, signature });

describe('claiming a transfer by signature', () => {
  it("pays the claimer's order when the sender's address signed; refuses another address's signature, a second claim and a stranger's order", async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(sender, kit.receiving, ROUND);
    await kit.report(buyer, order.id, hash);
    await kit.waitForPayment(hash, ['UNRESOLVED']);

    const forged = await claim(buyer, order.id, hash, await sign(stranger, order.id, hash));
    expect(forged.status).toBe(403);
    expect(forged.body.message).toBe(`The signature is not from the address that sent this transfer (${sender.toLowerCase()})`);
    // A signature for another order does not carry over.
    const other = await kit.placeOrder(buyer);
    expect((await claim(buyer, order.id, hash, await sign(sender, other.id, hash))).status).toBe(403);
    const intruder = await kit.createUser({ name: 'Intruder' });
    expect((await claim(intruder, order.id, hash, await sign(sender, order.id, hash))).status).toBe(404);
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');

    const ok = await claim(buyer, order.id, hash, await sign(sender, order.id, hash));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: 'COUNTED', orderStatus: 'PAID' });
    // Paid by the claim: the receipt the settlement decided on is queued (effects.ts), once.
    expect(await kit.workerRuntime.queues.email.getJob(jobIds.receipt(order.id))).toBeTruthy();
    const again = await claim(buyer, other.id, hash, await sign(sender, other.id, hash));
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This transfer was counted already');
  });

  it('a smart-contract wallet signs through ERC-1271: its owner signs, the wallet vouches', async () => {
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, sender);
    const order = await kit.placeOrder(buyer);
    const hash = await wallet.pay(kit.receiving, ROUND);
    await kit.runIndexer();
    const payment = await kit.waitForPayment(hash, ['UNRESOLVED']);
    expect(payment.fromAddress).toBe(wallet.address.toLowerCase());
    const res = await claim(buyer, order.id, hash, await sign(sender, order.id, hash));
    expect(res.status).toBe(200);
    expect(await kit.orderStatus(order.id)).toBe('PAID');
  });
});
