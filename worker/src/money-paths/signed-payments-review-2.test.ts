import { bytesToHex, erc20Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireOrders, Prisma } from '@shop/core';
import { authorizationDomain, authorizationValidBefore, tokenBySymbol, transferAuthorizationTypedData, type TransferAuthorization } from '@shop/core/contract';
import { mintMockToken } from '../../../scripts/lib/token-mocks.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * The signed-USDC relay (issue 38) read again as a thief would, after the first review's
 * mends: the claim's checks against the order's other payments and its payment window.
 * Each test states what the shop must hold to; the relay as it stands breaks it.
 */
const USDC = tokenBySymbol('USDC');
const RELAY_KEY = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';
const [, , , , exchange] = ANVIL_ACCOUNTS;
const usd = (dollars: number) => BigInt(Math.round(dollars * 100)) * 10n ** 4n; // 6 decimals
const CONFIRMATIONS = 2;

let kit: PaymentKit;

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

async function walletWithUsdc(dollars: number): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await mintMockToken(kit.env.anvil!.rpcUrl, USDC, [account.address], usd(dollars));
  return account;
}

const usdcOf = (address: Address) => kit.chain.wallet.readContract({ address: USDC.address, abi: erc20Abi, functionName: 'balanceOf', args: [address] });

type Signed = { message: TransferAuthorization; signature: Hex };

/** Signed as the pay page signs it (payment-request.ts): exactly the quote, to its payTo, until authorizationValidBefore. */
async function sign(signer: PrivateKeyAccount, quote: { amount: string; payTo: string; expiresAt: string }): Promise<Signed> {
  const message: TransferAuthorization = {
    from: signer.address,
    to: quote.payTo as Address,
    value: BigInt(quote.amount),
    validAfter: 0n,
    validBefore: authorizationValidBefore(new Date(quote.expiresAt)),
    nonce: bytesToHex(crypto.getRandomValues(new Uint8Array(32))),
  };
  return { message, signature: await signer.signTypedData(transferAuthorizationTypedData(authorizationDomain(USDC, 1)!, message)) };
}

function post(user: TestUser, orderId: string, signed: Signed) {
  const m = signed.message;
  return kit.as(user).then((agent) =>
    agent.post(`/api/orders/${orderId}/authorization`).send({
      asset: 'USDC',
      from: m.from,
      to: m.to,
      value: m.value.toString(),
      validAfter: m.validAfter.toString(),
      validBefore: m.validBefore.toString(),
      nonce: m.nonce,
      signature: signed.signature,
    }),
  );
}

async function usdcQuote(user: TestUser, orderId: string) {
  const res = await (await kit.as(user)).get(`/api/orders/${orderId}`);
  expect(res.status).toBe(200);
  return res.body.quotes.find((q: { asset: string }) => q.asset === 'USDC');
}

const authorization = (id: string) => kit.db.paymentAuthorization.findUniqueOrThrow({ where: { id } });

const ENDED = ['CONFIRMED', 'FAILED', 'DROPPED'];

/** Mines a block a step (automine or not) until the authorization ends. */
function ended(id: string) {
  return waitFor(`authorization ${id} to end`, async () => {
    await kit.chain.mine(1);
    const row = await authorization(id);
    return ENDED.includes(row.status) ? row : null;
  });
}

async function untilPaid(orderId: string) {
  await waitFor(`order ${orderId} to be PAID`, async () => {
    await kit.chain.mine(1);
    await kit.runIndexer();
    return (await kit.orderStatus(orderId)) === 'PAID';
  });
}

/** Today's sweeps spent the gas budget the relay shares: the relay holds the authorization (RECEIVED, saying why) until `free`. */
async function budgetSpent(): Promise<{ free: () => Promise<void> }> {
  const spent = await kit.db.depositSweep.create({
    data: { txHash: bytesToHex(crypto.getRandomValues(new Uint8Array(32))), fromAddress: ANVIL_ACCOUNTS[8].toLowerCase(), nonce: 999, status: 'FAILED', gasLimit: 1n, maxFeePerGasWei: new Prisma.Decimal(1), expectedWei: new Prisma.Decimal(0), feeWei: new Prisma.Decimal('50000000000000000') },
  });
  return { free: () => kit.db.depositSweep.delete({ where: { id: spent.id } }).then(() => undefined) };
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
      const res = await post(buyer, order.id, await sign(wallet, quote));
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
    await untilPaid(order.id);
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
      const res = await post(buyer, order.id, await sign(wallet, quote));
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
