import { erc20Abi, parseAbi, type Address, type Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelOrder, recoverDepositToken } from '@shop/core';
import { tokenTransferRequest } from '../../../core/src/rails/erc20/index.ts';
import { tokenBySymbol, type Token } from '@shop/core/contract';
import { writeFeedRound } from '../../../scripts/lib/price-feed-mock.ts';
import { mintMockToken } from '../../../scripts/lib/token-mocks.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { deployTokenTestContract } from '../../../scripts/testing/token-contracts.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Paying in USDC (issue "Pay in dollars"): a token pays the order whose deposit address it
 * reached, whoever sent it, valued at its quote's price (a dollar on the peg). Every rule
 * of an ETH payment holds: under then topped up, over, reorganized, dust; a token the
 * shop does not accept (USDT here) never pays; off its peg a token is not quoted.
 */
const USDC = tokenBySymbol('USDC');
const USDT = tokenBySymbol('USDT');
const [owner, , , , exchange, , stranger] = ANVIL_ACCOUNTS;
const usd = (dollars: number) => BigInt(Math.round(dollars * 100)) * 10n ** 4n; // 6 decimals

let kit: PaymentKit;
let buyer: TestUser;
let referrer: TestUser;

beforeAll(async () => {
  // USDT is left out on purpose: a token the shop does not accept. Prices are read fresh (a feed moves in a test).
  kit = await createPaymentKit({ env: { ACCEPTED_ASSETS: 'ETH,USDC', PRICE_CACHE_SECONDS: '0', SWEEPER_PRIVATE_KEY: '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97' } });
  referrer = await kit.createUser({ name: 'Referrer' });
  buyer = await kit.createUser({ name: 'Buyer', referredById: referrer.id });
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.close();
});

async function sendToken(token: Token, from: Address, to: Address, amount: bigint): Promise<Hash> {
  const hash = await kit.chain.wallet.sendTransaction({ account: from, chain: null, ...tokenTransferRequest(token, to, amount) });
  const receipt = await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success') throw new Error(`the ${token.symbol} transfer ${hash} reverted`);
  await kit.runIndexer();
  return hash;
}

async function orderDetail(orderId: string) {
  const res = await (await kit.as(buyer)).get(`/api/orders/${orderId}`);
  expect(res.status).toBe(200);
  return res.body;
}

const tokenPayments = (orderId: string) => kit.db.payment.findMany({ where: { orderId, asset: 'USDC' }, orderBy: { logIndex: 'asc' } });

describe('paying in USDC', () => {
  it('the order offers a USDC quote of exactly its dollars, to its deposit address', async () => {
    const order = await kit.placeOrder(buyer);
    const detail = await orderDetail(order.id);
    expect(detail.quotes.map((q: { asset: string }) => q.asset)).toEqual(['ETH', 'USDC']);
    expect(detail.quotes[1]).toMatchObject({ asset: 'USDC', amount: '25000000', decimals: 6, tokenAddress: USDC.address, payTo: order.depositAddress, depositAddress: order.depositAddress, usdAmount: 25, chainId: 1 });
    expect(detail.quotes[0]).toMatchObject({ asset: 'ETH', amount: order.amountWei.toString(), tokenAddress: null, payTo: kit.receiving });
    expect(detail.quotesNotOffered).toEqual([]);
    // The ETH quote is still `quote`, as before.
    expect(detail.quote.amountWei).toBe(order.amountWei.toString());
  });

  it('underpaid, then topped up from another address: PAID, its referral reward once, each transfer its own payment', async () => {
    const order = await kit.placeOrder(buyer);
    await orderDetail(order.id);
    await sendToken(USDC, exchange, order.depositAddress, usd(10));
    await kit.waitForStatus(order.id, 'UNDERPAID');
    const under = await orderDetail(order.id);
    expect(under.paidUsd).toBe(10);
    // What is still due, in both assets.
    expect(under.quotes.find((q: { asset: string }) => q.asset === 'USDC')).toMatchObject({ amount: '15000000', usdAmount: 15 });
    await sendToken(USDC, stranger, order.depositAddress, usd(15));
    await kit.waitForStatus(order.id, 'PAID');
    const payments = await tokenPayments(order.id);
    expect(payments.map((p) => [p.status, p.amount?.toFixed(0), p.usdValue?.toFixed(2), p.payerAddress])).toEqual([
      ['COUNTED', '10000000', '10.00', null],
      ['COUNTED', '15000000', '15.00', null],
    ]);
    expect((await kit.referralEntries(referrer.id)).filter((e) => e.reference === `order:${order.id}`).map((e) => e.amount.toFixed(2))).toEqual(['2.50']);
    const paid = await orderDetail(order.id);
    expect(paid.payments.map((p: { asset: string; amount: string; valueWei: string | null }) => [p.asset, p.amount, p.valueWei])).toEqual([
      ['USDC', '10000000', null],
      ['USDC', '15000000', null],
    ]);
  });

  it('one transaction whose two Transfer logs pay two orders: two payments, each its own amount', async () => {
    const a = await kit.placeOrder(buyer);
    const b = await kit.placeOrder(buyer);
    await Promise.all([orderDetail(a.id), orderDetail(b.id)]);
    const batch = await deployTokenTestContract(kit.env.anvil!.rpcUrl, 'TokenBatch', owner);
    await mintMockToken(kit.env.anvil!.rpcUrl, USDC, [batch.address], usd(100));
    const hash = await kit.chain.wallet.writeContract({
      account: owner,
      chain: null,
      address: batch.address,
      abi: parseAbi(['function send(address token, address[] to, uint256[] values)']),
      functionName: 'send',
      args: [USDC.address, [a.depositAddress, b.depositAddress], [usd(25), usd(25)]],
    });
    await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await kit.runIndexer();
    await kit.waitForStatus(a.id, 'PAID');
    await kit.waitForStatus(b.id, 'PAID');
    const rows = await kit.db.payment.findMany({ where: { txHash: hash.toLowerCase() }, orderBy: { logIndex: 'asc' } });
    expect(rows.map((r) => [r.orderId, r.asset, r.amount?.toFixed(0), r.status])).toEqual([
      [a.id, 'USDC', '25000000', 'COUNTED'],
      [b.id, 'USDC', '25000000', 'COUNTED'],
    ]);
    expect(new Set(rows.map((r) => r.logIndex)).size).toBe(2);
  });

  it('a few units of USDC are dust: they pay nothing and move no order', async () => {
    const order = await kit.placeOrder(buyer);
    await orderDetail(order.id);
    const hash = await sendToken(USDC, stranger, order.depositAddress, 9_999n); // less than a cent
    const payment = await waitFor('the dust payment', async () => {
      const p = await kit.db.payment.findFirst({ where: { txHash: hash.toLowerCase() } });
      return p && p.status !== 'PENDING' ? p : null;
    });
    expect(payment).toMatchObject({ status: 'UNRESOLVED', orderId: null });
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
  });

  it('USDC sent to the receiving address names no order: it waits for an admin, never read for a tag', async () => {
    const order = await kit.placeOrder(buyer);
    // An amount whose low digits would carry the order's tag if it were wei (up to a million USDC).
    await mintMockToken(kit.env.anvil!.rpcUrl, USDC, [stranger], 10n ** 12n);
    const hash = await sendToken(USDC, stranger, kit.receiving, order.amountWei % 10n ** 12n);
    const payment = await waitFor('the payment to the receiving address', async () => {
      const p = await kit.db.payment.findFirst({ where: { txHash: hash.toLowerCase() } });
      return p && p.status !== 'PENDING' ? p : null;
    });
    expect(payment).toMatchObject({ status: 'UNRESOLVED', orderId: null, asset: 'USDC', depositAddress: null });
    expect(payment.reason).toMatch(/names no order/);
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
  });

  it('a reorganization that removes a USDC payment unpays the order and takes back its referral reward', async () => {
    const order = await kit.placeOrder(buyer);
    await orderDetail(order.id);
    await sendToken(USDC, exchange, order.depositAddress, usd(25));
    await kit.waitForStatus(order.id, 'PAID');
    expect((await kit.referralEntries(referrer.id)).filter((e) => e.reference === `order:${order.id}`).map((e) => e.kind)).toEqual(['REFERRAL_REWARD']);
    await kit.chain.reorg(1);
    await kit.runIndexer();
    await waitFor('the order unpaid', async () => (await kit.orderStatus(order.id)) !== 'PAID');
    expect((await kit.referralEntries(referrer.id)).filter((e) => e.reference?.startsWith(`order:${order.id}`)).map((e) => [e.kind, e.amount.toFixed(2)])).toEqual([
      ['REFERRAL_REWARD', '2.50'],
      ['REFERRAL_REVERSAL', '-2.50'],
    ]);
    // The order can still be paid in full.
    await sendToken(USDC, exchange, order.depositAddress, usd(25));
    await kit.waitForStatus(order.id, 'PAID');
  });

  it('a token the shop does not accept (USDT here) never pays, and is recovered to the receiving address', async () => {
    const order = await kit.placeOrder(buyer);
    const detail = await orderDetail(order.id);
    expect(detail.quotes.map((q: { asset: string }) => q.asset)).toEqual(['ETH', 'USDC']);
    const hash = await sendToken(USDT, exchange, order.depositAddress, usd(25));
    await kit.runIndexer();
    expect(await kit.db.payment.count({ where: { txHash: hash.toLowerCase() } })).toBe(0);
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
    // Its buyer cancels it: a token is recovered once the order is no longer being paid.
    await cancelOrder(kit.db, { orderId: order.id, userId: buyer.id });
    const recovered = await recoverDepositToken(kit.workerRuntime, order.id, USDT.address);
    expect(recovered).toMatchObject({ status: 'success', amount: usd(25) });
    const held = await kit.chain.wallet.readContract({ address: USDT.address, abi: erc20Abi, functionName: 'balanceOf', args: [order.depositAddress] });
    expect(held).toBe(0n);
  });
});

describe('money out in USDC', () => {
  const treasury = ANVIL_ACCOUNTS[5]; // the shop's payout wallet (DEV_PAYOUT_ADDRESS)
  const wallet = ANVIL_ACCOUNTS[7];

  async function overpaid(): Promise<{ id: string }> {
    const order = await kit.placeOrder(buyer);
    await orderDetail(order.id);
    await sendToken(USDC, exchange, order.depositAddress, usd(30));
    await kit.waitForStatus(order.id, 'PAID');
    return order;
  }

  it('an overpayment is refunded in USDC, its payout verified from its Transfer log', async () => {
    const order = await overpaid();
    const detail = await orderDetail(order.id);
    expect(detail.overpayment).toMatchObject({ usd: 5, wei: '0', parts: [{ asset: 'USDC', amount: '5000000', wei: null, usd: 5 }] });
    const admin = await kit.createUser({ name: 'Refunding admin', isAdmin: true });
    const created = await (await kit.as(admin)).post('/api/admin/refunds').send({ orderId: order.id, wallet });
    expect(created.status).toBe(201);
    const refund = await kit.db.refund.findFirstOrThrow({ where: { orderId: order.id } });
    expect({ asset: refund.asset, amount: refund.amount.toFixed(0), wallet: refund.wallet.toLowerCase() }).toEqual({ asset: 'USDC', amount: '5000000', wallet: wallet.toLowerCase() });
    // ETH's worth of the same number is no payout of it.
    const inEth = await kit.chain.sendAndWait(treasury, wallet, 5_000_000n);
    expect((await kit.markPayoutPaid(admin, 'refunds', refund.id, inEth)).status).toBe(202);
    expect((await kit.payoutVerdict('refund', refund.id)).status).toBe('REFUSED');
    const paid = await sendToken(USDC, treasury, wallet, usd(5));
    expect((await kit.markPayoutPaid(admin, 'refunds', refund.id, paid)).status).toBe(202);
    expect((await kit.payoutVerdict('refund', refund.id)).status).toBe('ACCEPTED');
    expect((await kit.db.refund.findUniqueOrThrow({ where: { id: refund.id } })).status).toBe('PAID');
    const listed = (await (await kit.as(admin)).get('/api/admin/refunds')).body.find((r: { _id: string }) => r._id === refund.id);
    expect(listed).toMatchObject({ asset: 'USDC', amount: '5000000', amountText: '5.00 USDC', amountWei: null });
  });

  it('a refund to an address the issuer blocks is refused with a message, and nothing is created', async () => {
    const order = await overpaid();
    const blocked = ANVIL_ACCOUNTS[9];
    await kit.chain.wallet.writeContract({ account: owner, chain: null, address: USDC.address, abi: parseAbi(['function blacklist(address)']), functionName: 'blacklist', args: [blocked] });
    const admin = await kit.createUser({ name: 'Careful admin', isAdmin: true });
    const refused = await (await kit.as(admin)).post('/api/admin/refunds').send({ orderId: order.id, wallet: blocked });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`${blocked} is on the USDC issuer's blocklist: USDC sent there cannot arrive. Name another wallet for this refund`);
    expect(await kit.db.refund.count({ where: { orderId: order.id } })).toBe(0);
    expect((await orderDetail(order.id)).overpayment).toMatchObject({ usd: 5 });
    // Another wallet is refunded as usual; the buyer may also take it as balance.
    const credited = await (await kit.as(buyer)).post(`/api/orders/${order.id}/overpayment`).send({ action: 'balance' });
    expect(credited.body).toEqual({ message: '$5.00 added to your active balance', credited: '5.00' });
  });
});

describe('an overpayment in USDC added to the balance', () => {
  it('is worth what the feed says, even within the peg: a token bought under a dollar never becomes a dollar of balance', async () => {
    const rpcUrl = kit.env.anvil!.rpcUrl;
    const order = await kit.placeOrder(buyer);
    await orderDetail(order.id);
    await sendToken(USDC, exchange, order.depositAddress, usd(30));
    await kit.waitForStatus(order.id, 'PAID');
    // 0.99: within STABLECOIN_PEG_TOLERANCE_BPS (100), so quotes are still a dollar a token.
    await writeFeedRound(rpcUrl, { feedAddress: USDC.usdFeed, priceUsd: '0.99' });
    try {
      expect((await orderDetail(order.id)).overpayment).toMatchObject({ usd: 5, creditUsd: 4.95 });
      const before = (await kit.db.user.findUniqueOrThrow({ where: { id: buyer.id } })).activeBalance;
      const credited = await (await kit.as(buyer)).post(`/api/orders/${order.id}/overpayment`).send({ action: 'balance' });
      expect(credited.body).toEqual({ message: '$4.95 added to your active balance', credited: '4.95' });
      expect((await kit.db.user.findUniqueOrThrow({ where: { id: buyer.id } })).activeBalance.minus(before).toFixed(2)).toBe('4.95');
    } finally {
      await writeFeedRound(rpcUrl, { feedAddress: USDC.usdFeed, priceUsd: '1.00' });
    }
  });
});

describe('a stablecoin off its peg', () => {
  it('is not quoted (the order says why), and what arrives without a quote is valued at its feed, for an admin', async () => {
    const rpcUrl = kit.env.anvil!.rpcUrl;
    await writeFeedRound(rpcUrl, { feedAddress: USDC.usdFeed, priceUsd: '0.97' });
    try {
      const order = await kit.placeOrder(buyer);
      const detail = await orderDetail(order.id);
      expect(detail.quotes.map((q: { asset: string }) => q.asset)).toEqual(['ETH']);
      expect(detail.quotesNotOffered).toEqual([{ asset: 'USDC', reason: 'USDC is off its dollar peg (0.9700); pay in ETH or another asset' }]);
      const hash = await sendToken(USDC, exchange, order.depositAddress, usd(25));
      const payment = await waitFor('the off-peg payment', async () => {
        const p = await kit.db.payment.findFirst({ where: { txHash: hash.toLowerCase() } });
        return p && p.status !== 'PENDING' ? p : null;
      });
      // 25 USDC at 0.97 is $24.25: short of the $25.00 due.
      expect(payment).toMatchObject({ status: 'LATE', orderId: order.id });
      expect(payment.usdValue?.toFixed(2)).toBe('24.25');
      expect(await kit.orderStatus(order.id)).toBe('LATE');
    } finally {
      await writeFeedRound(rpcUrl, { feedAddress: USDC.usdFeed, priceUsd: '1.00' });
    }
  });

  it('a quote issued on the peg is honoured when the token slips before the transfer is mined', async () => {
    const rpcUrl = kit.env.anvil!.rpcUrl;
    const order = await kit.placeOrder(buyer);
    await orderDetail(order.id);
    await writeFeedRound(rpcUrl, { feedAddress: USDC.usdFeed, priceUsd: '0.95' });
    try {
      await sendToken(USDC, exchange, order.depositAddress, usd(25));
      await kit.waitForStatus(order.id, 'PAID');
      expect((await tokenPayments(order.id)).map((p) => p.usdValue?.toFixed(2))).toEqual(['25.00']);
    } finally {
      await writeFeedRound(rpcUrl, { feedAddress: USDC.usdFeed, priceUsd: '1.00' });
    }
  });
});
