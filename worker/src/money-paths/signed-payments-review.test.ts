import { createPublicClient, custom, parseEther, parseGwei, type Address } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma, relayAuthorization } from '@shop/core';
import { tokenTransferRequest } from '../../../core/src/rails/erc20/index.ts';
import { mintMockToken } from '../../../scripts/lib/token-mocks.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';
import { RELAY_ENDED, RELAY_KEY, signedPayments, USDC, usd, type Signed } from '../testing/signed-payments.ts';

/**
 * The signed-USDC relay (issue 38) read as a thief would: what each input, each moment and
 * each concurrent actor can make the relay do, and what it costs the shop. Each test states
 * what the shop must hold to; the relay as first built breaks it (review of issue 38).
 */
const relayAccount = privateKeyToAccount(RELAY_KEY);
const [, , , , exchange, , stranger] = ANVIL_ACCOUNTS;

let kit: PaymentKit;
const { walletWithUsdc, usdcOf, sign, post, usdcQuote, authorization, relayIn, untilPaid, budgetSpent } = signedPayments(() => kit);

beforeAll(async () => {
  kit = await createPaymentKit({
    env: {
      ACCEPTED_ASSETS: 'ETH,USDC',
      RELAY_PRIVATE_KEY: RELAY_KEY,
      RELAY_RETRY_MS: '200',
      RELAY_REPLACE_AFTER_MS: '1500',
      RELAY_FAILURES_PER_USER_PER_DAY: '1',
      SWEEP_GAS_BUDGET_ETH: '0.05',
    },
  });
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.chain.setAutomine(true).catch(() => {});
  await kit?.close();
});









const ENDED = RELAY_ENDED;



/** Posts the buyer's authorization while the budget is spent; resolves once the relay says it waits for it. */
async function heldByTheBudget(buyer: TestUser, orderId: string, signed: Signed) {
  const res = await post(buyer, orderId, signed);
  expect(res.status).toBe(202);
  return waitFor('the relay to wait for the budget', async () => {
    const row = await authorization(res.body._id);
    return row.reason?.startsWith('Relaying waits: the gas budget') ? row : null;
  });
}

/** The buyer's USDC leaves for the deposit address in the same block as the shop's transaction, ahead of it: that transaction reverts. */
async function failOnChain(buyer: TestUser, wallet: PrivateKeyAccount, orderId: string) {
  const quote = await usdcQuote(buyer, orderId);
  await kit.chain.setAutomine(false);
  try {
    const res = await post(buyer, orderId, await sign(wallet, quote));
    expect(res.status).toBe(202);
    const sent = await relayIn(res.body._id, ['SENT']);
    await kit.chain.test.setBalance({ address: wallet.address, value: parseEther('1') });
    await kit.chain.wallet.sendTransaction({ account: wallet, chain: null, ...tokenTransferRequest(USDC, stranger, await usdcOf(wallet.address)), gas: 100_000n, maxPriorityFeePerGas: parseGwei('50'), maxFeePerGas: parseGwei('200') });
    await kit.chain.mine(1);
    return await relayIn(sent.id, ['FAILED']);
  } finally {
    await kit.chain.setAutomine(true);
  }
}

describe('the signed-USDC relay, read as a thief would', () => {
  it('an order paid in ETH while its signed USDC payment waits for the gas budget: the relay does not send the USDC on top (an overpayment, the shop paying its gas and a refund)', async () => {
    const buyer = await kit.createUser({ name: 'Twice' });
    const wallet = await walletWithUsdc(100);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const budget = await budgetSpent();
    let waiting;
    try {
      waiting = await heldByTheBudget(buyer, order.id, await sign(wallet, quote));
      // Meanwhile the buyer (or a friend) pays the order in ETH.
      await kit.chain.sendAndWait(exchange, order.depositAddress, order.amountWei);
      await untilPaid(order.id);
    } finally {
      await budget.free();
    }
    const ended = await relayIn(waiting.id, ENDED);
    await kit.runIndexer();
    expect({ relay: ended.status, buyerUsdc: await usdcOf(wallet.address) }).toEqual({ relay: 'DROPPED', buyerUsdc: usd(100) });
  });

  it('an order cancelled by its buyer while its signed payment waits for the gas budget: no USDC is sent to the cancelled order', async () => {
    const buyer = await kit.createUser({ name: 'Quitter' });
    const wallet = await walletWithUsdc(100);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const budget = await budgetSpent();
    let waiting;
    let cancel;
    try {
      waiting = await heldByTheBudget(buyer, order.id, await sign(wallet, quote));
      cancel = await (await kit.as(buyer)).post(`/api/orders/${order.id}/cancel`).send({});
    } finally {
      await budget.free();
    }
    const ended = await relayIn(waiting.id, ENDED);
    await kit.runIndexer();
    const outcome = { cancel: cancel.status, order: await kit.orderStatus(order.id), relay: ended.status, buyerUsdc: await usdcOf(wallet.address) };
    // Either the cancel is refused while the shop holds a signed payment for the order (it is then paid), or the relay drops it.
    expect([
      { cancel: 409, order: 'PAID', relay: 'CONFIRMED', buyerUsdc: usd(100) - BigInt(quote.amount) },
      { cancel: 200, order: 'CANCELLED', relay: 'DROPPED', buyerUsdc: usd(100) },
    ]).toContainEqual(outcome);
  });

  it('an order cannot be cancelled while the shop\'s transaction for its signed payment is in the mempool, as with any payment being confirmed', async () => {
    const buyer = await kit.createUser({ name: 'Hasty' });
    const wallet = await walletWithUsdc(25);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    await kit.chain.setAutomine(false);
    let cancel;
    try {
      const res = await post(buyer, order.id, await sign(wallet, quote));
      expect(res.status).toBe(202);
      await relayIn(res.body._id, ['SENT']);
      cancel = await (await kit.as(buyer)).post(`/api/orders/${order.id}/cancel`).send({});
    } finally {
      await kit.chain.mine(1);
      await kit.chain.setAutomine(true);
    }
    expect({ status: cancel.status, message: cancel.body.message }).toEqual({ status: 409, message: expect.stringMatching(/cannot be cancelled now/) });
  });

  it('an authorization valid far beyond its quote (a year) is refused: the relay could otherwise hold it and send it long after the order expired', async () => {
    const buyer = await kit.createUser({ name: 'Forever' });
    const wallet = await walletWithUsdc(25);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const aYear = BigInt(Math.floor(Date.parse(quote.expiresAt) / 1000) + 365 * 86_400);
    const res = await post(buyer, order.id, await sign(wallet, quote, { validBefore: aYear }));
    expect(res.status).toBe(400);
    expect(await kit.db.paymentAuthorization.count({ where: { orderId: order.id } })).toBe(0);
  });

  it("a second order's authorization from a wallet whose USDC is already promised to a signed payment on its way is refused: the wallet holds one payment, not two", async () => {
    const buyer = await kit.createUser({ name: 'Promised twice' });
    const wallet = await walletWithUsdc(25);
    const first = await kit.placeOrder(buyer);
    const second = await kit.placeOrder(buyer);
    const budget = await budgetSpent();
    let again;
    try {
      await heldByTheBudget(buyer, first.id, await sign(wallet, await usdcQuote(buyer, first.id)));
      again = await post(buyer, second.id, await sign(wallet, await usdcQuote(buyer, second.id)));
    } finally {
      await budget.free();
    }
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`${wallet.address.toLowerCase()} has a signed payment on its way for another order already: wait until it is sent, then sign again`);
  });

  it('the relay sends one wallet\'s authorizations for three orders in one block, its USDC enough for one, on a node that estimates gas at the latest block (geth): two revert and the shop pays their gas', async () => {
    const buyer = await kit.createUser({ name: 'Spread thin' });
    const wallet = await walletWithUsdc(25);
    // The rows as acceptAuthorization writes them (it takes all three: each alone is covered), with no job: this test drives the relay itself.
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const order = await kit.placeOrder(buyer);
      const { message: m, signature } = await sign(wallet, await usdcQuote(buyer, order.id));
      const row = await kit.db.paymentAuthorization.create({
        data: { orderId: order.id, userId: buyer.id, asset: 'USDC', fromAddress: m.from.toLowerCase(), toAddress: m.to.toLowerCase(), value: new Prisma.Decimal(m.value.toString()), validAfter: m.validAfter, validBefore: m.validBefore, nonce: m.nonce, signature },
      });
      ids.push(row.id);
    }
    // A node that estimates gas at the latest block, as geth does (anvil estimates at its pending block).
    const base = kit.workerRuntime.chain;
    const geth = createPublicClient({
      chain: mainnet,
      transport: custom({ request: ({ method, params }) => base.request({ method, params: method === 'eth_estimateGas' && params.length === 1 ? [params[0], 'latest'] : params } as never) }, { retryCount: 0 }),
    });
    const deps = { ...kit.workerRuntime, chain: geth, logger: kit.workerRuntime.logger };
    // Blocks take their time (mainnet's 12 s): what the relay sends meanwhile is mined together.
    await kit.chain.setAutomine(false);
    try {
      for (const id of ids) await relayAuthorization(deps, id);
    } finally {
      await kit.chain.mine(1);
      await kit.chain.setAutomine(true);
    }
    const rows = await waitFor('the relay to finish each', async () => {
      await kit.chain.mine(1);
      for (const id of ids) await relayAuthorization(deps, id).catch(() => null);
      const all = await kit.db.paymentAuthorization.findMany({ where: { id: { in: ids } } });
      return all.every((r) => ENDED.includes(r.status)) ? all : null;
    });
    expect({ confirmed: rows.filter((r) => r.status === 'CONFIRMED').length, failedOnChain: rows.filter((r) => r.status === 'FAILED').map((r) => r.reason) }).toEqual({ confirmed: 1, failedOnChain: [] });
  });

  it("a buyer limited for failed signed payments cannot go on from a new account with the same wallet (the failures' gas comes out of the budget the sweeps share)", async () => {
    const first = await kit.createUser({ name: 'Griefer one' });
    const wallet = await walletWithUsdc(25);
    const failed = await failOnChain(first, wallet, (await kit.placeOrder(first)).id);
    expect(failed.buyerFault).toBe(true);
    // The same wallet, its USDC back, through a second account.
    const second = await kit.createUser({ name: 'Griefer two' });
    await mintMockToken(kit.env.anvil!.rpcUrl, USDC, [wallet.address], usd(25));
    const order = await kit.placeOrder(second);
    const again = await post(second, order.id, await sign(wallet, await usdcQuote(second, order.id)));
    expect(again.status).toBe(429);
  });

  it('the relay wallet\'s nonce taken by another of its transactions (an operator\'s, a second deployment\'s): the authorization does not wait for ever, and is sent again', async () => {
    const buyer = await kit.createUser({ name: 'Stuck' });
    const wallet = await walletWithUsdc(25);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    await kit.chain.setAutomine(false);
    let sent;
    try {
      const res = await post(buyer, order.id, await sign(wallet, quote));
      expect(res.status).toBe(202);
      sent = await relayIn(res.body._id, ['SENT']);
      // Another transaction of the relay wallet on that nonce, at a fee no replacement of the relay's reaches.
      await kit.chain.wallet.sendTransaction({ account: relayAccount, chain: null, to: relayAccount.address, value: 0n, nonce: sent.relayNonce!, gas: 21_000n, maxFeePerGas: parseGwei('2000'), maxPriorityFeePerGas: parseGwei('1000') });
      await kit.chain.mine(1);
    } finally {
      await kit.chain.setAutomine(true);
    }
    await kit.chain.mine(kit.env.config.paymentConfirmations);
    // The authorization is still unused on chain and its window open: sent again on a fresh nonce (or dropped, so the buyer can sign again).
    const ended = await waitFor('the relay to stop waiting on a nonce it lost', async () => {
      await kit.chain.mine(1);
      const row = await authorization(sent.id);
      return ENDED.includes(row.status) ? row : null;
    }).catch(() => authorization(sent.id));
    expect({ status: ended.status, reason: ended.reason }).toEqual({ status: expect.stringMatching(/^(CONFIRMED|DROPPED)$/), reason: expect.not.stringMatching(/none of its transactions has a receipt/) });
    if (ended.status === 'CONFIRMED') await untilPaid(order.id);
    else expect((await post(buyer, order.id, await sign(wallet, quote))).status).toBe(202);
  });

  it("an external signer's transaction whose broadcast answer is lost (the node took it and mined it): the relay records its own transaction and its gas, not 'Used by another transaction, the shop sent nothing'", async () => {
    const buyer = await kit.createUser({ name: 'Signer lost' });
    const wallet = await walletWithUsdc(25);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const signed = await sign(wallet, quote);
    // The row as acceptAuthorization writes it, with no job (this test drives the relay itself).
    const m = signed.message;
    const row = await kit.db.paymentAuthorization.create({
      data: { orderId: order.id, userId: buyer.id, asset: 'USDC', fromAddress: m.from.toLowerCase(), toAddress: m.to.toLowerCase(), value: new Prisma.Decimal(m.value.toString()), validAfter: m.validAfter, validBefore: m.validBefore, nonce: m.nonce, signature: signed.signature },
    });
    // An external signer behind the node (RELAY_ADDRESS): anvil signs for its unlocked dev account #5 (eth_signTransaction).
    const signer = ANVIL_ACCOUNTS[5];
    // The node takes the first broadcast and its answer is lost on the way back (a timeout).
    const base = kit.workerRuntime.chain;
    let sends = 0;
    const lossy = createPublicClient({
      chain: mainnet,
      transport: custom(
        {
          async request({ method, params }) {
            const out = await base.request({ method, params } as never);
            if ((method === 'eth_sendTransaction' || method === 'eth_sendRawTransaction') && sends++ === 0) throw new Error('The request took too long to respond.');
            return out;
          },
        },
        { retryCount: 0 },
      ),
    });
    const deps = { ...kit.workerRuntime, chain: lossy, config: { ...kit.workerRuntime.config, relayPrivateKey: undefined, relayAddress: signer.toLowerCase() as Address }, logger: kit.workerRuntime.logger };
    const before = await kit.chain.wallet.getTransactionCount({ address: signer });
    await expect(relayAuthorization(deps, row.id)).rejects.toThrow(/too long/);
    // The job's retries, until the relay is done with it.
    const done = await waitFor('the relay to finish', async () => {
      const step = await relayAuthorization(deps, row.id).catch(() => null);
      return step?.state === 'done' ? step : null;
    });
    await untilPaid(order.id);
    const ended = await authorization(row.id);
    // The shop's one transaction paid the order: recorded as the shop's, its gas counted (the budget, the cost of sale), never "the shop sent nothing".
    expect({ transactions: (await kit.chain.wallet.getTransactionCount({ address: signer })) - before, status: done.status, feeRecorded: ended.feeWei !== null, reason: ended.reason }).toEqual({
      transactions: 1,
      status: 'CONFIRMED',
      feeRecorded: true,
      reason: null,
    });
  });

  // Last: it moves the chain's clock past an authorization's window.
  it("the shop's transaction mined after the window it was sent in (stuck in the mempool): a revert for 'expired' is the shop's delay, not counted against the buyer", async () => {
    const buyer = await kit.createUser({ name: 'Late' });
    const wallet = await walletWithUsdc(25);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const validBefore = BigInt(Math.floor(Date.now() / 1000) + 200);
    await kit.chain.setAutomine(false);
    let failed;
    try {
      const res = await post(buyer, order.id, await sign(wallet, quote, { validBefore }));
      expect(res.status).toBe(202);
      const sent = await relayIn(res.body._id, ['SENT']);
      // Blocks were slow (a fee spike): the next one comes after the window closed.
      await kit.chain.test.setNextBlockTimestamp({ timestamp: validBefore + 1n });
      await kit.chain.mine(1);
      failed = await relayIn(sent.id, ['FAILED', 'DROPPED']);
    } finally {
      await kit.chain.setAutomine(true);
    }
    expect(failed.reason).toMatch(/authorization is expired/);
    expect(failed.buyerFault).toBe(false);
    // The buyer may sign again (RELAY_FAILURES_PER_USER_PER_DAY=1 here).
    const next = await kit.placeOrder(buyer);
    const again = await post(buyer, next.id, await sign(await walletWithUsdc(25), await usdcQuote(buyer, next.id)));
    expect(again.status).toBe(202);
  });
});
