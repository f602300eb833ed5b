import { type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireOrders } from '@shop/core';
import { authorizationValidBefore } from '@shop/core/contract';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';
import { RELAY_ENDED, RELAY_KEY, signedPayments, usd } from '../testing/signed-payments.ts';

/**
 * The signed-USDC relay (issue 38) read again as a thief would, after the first review's
 * mends: the claim's checks against the order's other payments and its payment window.
 * Each test states what the shop must hold to; the relay as it stands breaks it.
 */
const [, , , , exchange] = ANVIL_ACCOUNTS;
const CONFIRMATIONS = 2;

let kit: PaymentKit;
const { walletWithUsdc, usdcOf, sign, post, usdcQuote, authorization, untilPaid, budgetSpent } = signedPayments(() => kit);
/** Signed as the pay page signs it (payment-request.ts): exactly the quote, to its payTo, until authorizationValidBefore. */
const signAsPage = (signer: PrivateKeyAccount, quote: { amount: string; payTo: string; expiresAt: string }) => sign(signer, quote, { validBefore: authorizationValidBefore(new Date(quote.expiresAt)) });

beforeAll(async () => {
  kit = await createPaymentKit({
    env: {
      ACCEPTED_ASSETS: 'ETH,USDC',
      RELAY_PRIVATE_KEY: RELAY_KEY,
      RELAY_RETRY_MS: '200',
      RELAY_REPLACE_AFTER_MS: '1500',
      SWEEP_GAS_BUDGET_ETH: '0.05',
      // A transfer waits a block for its confirmation: an order is VERIFYING meanwhile.
      PAYMENT_CONFIRMATIONS: String(CONFIRMATIONS),
    },
  });
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.chain.setAutomine(true).catch(() => {});
  await kit?.close();
});








const ENDED = RELAY_ENDED;

/** Mines a block a step (automine or not) until the authorization ends. */
function ended(id: string) {
  return waitFor(`authorization ${id} to end`, async () => {
    await kit.chain.mine(1);
    const row = await authorization(id);
    return ENDED.includes(row.status) ? row : null;
  });
}



const BUDGET_WAIT = 'Relaying waits: the gas budget';

describe('the signed-USDC relay, read again as a thief would', () => {
  it("a signed payment is not sent while another payment of its order is being confirmed (VERIFYING): both would land, an overpayment at the shop's gas and a refund", async () => {
    const buyer = await kit.createUser({ name: 'Both ways' });
    const wallet = await walletWithUsdc(100);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const budget = await budgetSpent();
    let waiting;
    try {
      const res = await post(buyer, order.id, await signAsPage(wallet, quote));
      expect(res.status).toBe(202);
      waiting = await waitFor('the relay to wait for the budget', async () => {
        const row = await authorization(res.body._id);
        return row.reason?.startsWith(BUDGET_WAIT) ? row : null;
      });
      // Meanwhile the order is paid in full in ETH: mined, one confirmation of two.
      await kit.chain.sendAndWait(exchange, order.depositAddress, order.amountWei);
      await waitFor('the ETH transfer to be confirming', async () => {
        await kit.runIndexer();
        return (await kit.orderStatus(order.id)) === 'VERIFYING';
      });
    } finally {
      await budget.free();
    }
    // The budget frees while the ETH payment is being confirmed: what does the relay do?
    const next = await waitFor('the relay to act on the freed budget', async () => {
      const row = await authorization(waiting.id);
      return row.status !== 'RECEIVED' || !row.reason?.startsWith(BUDGET_WAIT) ? row : null;
    });
    await untilPaid(order.id, { mine: true });
    const end = await ended(waiting.id);
    expect({ whileVerifying: next.status, relay: end.status, buyerUsdc: await usdcOf(wallet.address) }).toEqual({ whileVerifying: 'RECEIVED', relay: 'DROPPED', buyerUsdc: usd(100) });
  });

  it("an order whose payment window ends while the shop's transaction for its signed payment is in the mempool is not expired under it: the USDC would land on an EXPIRED order, a late payment to refund", async () => {
    const buyer = await kit.createUser({ name: 'Last minute' });
    const wallet = await walletWithUsdc(25);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    await kit.chain.setAutomine(false);
    let whileSent;
    let sent;
    try {
      const res = await post(buyer, order.id, await signAsPage(wallet, quote));
      expect(res.status).toBe(202);
      sent = await waitFor('the relay to send it', async () => {
        const row = await authorization(res.body._id);
        return row.status === 'SENT' ? row : null;
      });
      // The order's payment window ends now (the authorization the page signs may run minutes past it:
      // authorizationValidBefore), the block with the shop's transaction not yet mined; the expiry job runs.
      await kit.db.order.update({ where: { id: order.id }, data: { paymentDeadline: new Date(Date.now() - 1_000) } });
      await expireOrders(kit.db, kit.env.config);
      whileSent = await kit.orderStatus(order.id);
    } finally {
      await kit.chain.mine(1);
      await kit.chain.setAutomine(true);
    }
    const end = await ended(sent.id);
    await kit.chain.mine(CONFIRMATIONS);
    // The payment it sent is verified as any other (a job): the order settles once that is done.
    const settled = await waitFor('the order to settle', async () => {
      await kit.runIndexer();
      const status = await kit.orderStatus(order.id);
      return ['PAID', 'LATE', 'EXPIRED'].includes(status) ? status : null;
    });
    expect({ whileSent, relay: end.status, order: settled }).toEqual({ whileSent: 'PENDING_PAYMENT', relay: 'CONFIRMED', order: 'PAID' });
  });
});
