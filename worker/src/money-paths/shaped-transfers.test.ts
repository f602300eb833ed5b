import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hash, Hex } from 'viem';
import { createTracer, expireOrders, verifyPayment } from '@shop/core';
import { claimMessage, refundWalletMessage } from '@shop/core/contract';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { setEthUsdPrice } from '../../../scripts/lib/price-feed-mock.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { deployBatchRelayer, deployOddPayer, deploySmartWallet } from '../../../scripts/testing/smart-wallet.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Transfers whose meaning an attacker shapes: a batch that carries someone else's
 * payment, a few cents sent with another buyer's tag, an overpayment sent while the
 * price is locked, a pending hash reported by someone else first, a contract payment
 * re-mined with value after a reorganization, an inflow refunded before it could be
 * traced. Each test failed on the code before its fix; the books are proven when each
 * kit closes.
 */
const victimOwner = ANVIL_ACCOUNTS[3];
const thief = ANVIL_ACCOUNTS[6];
const buyerWallet = ANVIL_ACCOUNTS[2];
const stranger = ANVIL_ACCOUNTS[4];
const ROUND = 10n ** 16n; // 0.01 ETH = $30 at $3000: no tag in its digits
/** The digits of an amount that carry its order's tag. */
const tagDigits = (amountWei: bigint) => amountWei % 10n ** 12n;

describe("a batch that carries another wallet's payment", () => {
  let kit: PaymentKit;
  let victim: TestUser;
  let thiefUser: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit();
    victim = await kit.createUser({ name: 'Victim' });
    thiefUser = await kit.createUser({ name: 'Thief' });
    admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  const claim = async (user: TestUser, orderId: string, txHash: string, signer: Address) =>
    (await kit.as(user)).put(`/api/orders/${orderId}/claim`).send({ txHash, signature: await kit.chain.wallet.signMessage({ account: signer, message: claimMessage(orderId, txHash) }) });

  it('is never claimable by signature and never refunded to whoever made its first call: an admin names the wallet', async () => {
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, victimOwner);
    const relayer = await deployBatchRelayer(kit.env.anvil!.rpcUrl, thief);
    await kit.runIndexer();
    const thiefOrder = await kit.placeOrder(thiefUser);
    const victimOrder = await kit.placeOrder(victim);
    // The victim signs a rounded payment (no tag) that anyone may relay, as a Safe's execTransaction.
    const signed = { to: kit.receiving, value: ROUND, nonce: 1n, signature: await wallet.signPayment(kit.receiving, ROUND, 1n) };
    // The thief's contract pays 1 wei first, then relays the victim's payment: one transaction, two calls.
    const hash = await relayer.payAndRelay(kit.receiving, wallet.address, signed, 1n);
    await kit.runIndexer();
    const payment = await kit.waitForPayment(hash, ['UNRESOLVED', 'COUNTED', 'LATE']);
    expect(payment.status).toBe('UNRESOLVED');
    expect(payment.amount?.toFixed(0)).toBe((ROUND + 1n).toString());

    const theft = await claim(thiefUser, thiefOrder.id, hash, thief);
    expect(theft.status).toBe(409);
    expect(theft.body.message).toBe('This transfer was delivered by several calls or with ETH from more than one wallet: no single address can sign for it. An admin will assign or refund it.');
    expect(await kit.orderStatus(thiefOrder.id)).toBe('PENDING_PAYMENT');
    // Not even the victim can claim it by signature: the shop cannot tell whose part is whose.
    expect((await claim(victim, victimOrder.id, hash, victimOwner)).status).toBe(409);

    const asAdmin = await kit.as(admin);
    const toSender = await asAdmin.post(`/api/admin/payments/${payment.id}/refund`).send({});
    expect(toSender.status).toBe(409);
    expect(toSender.body.message).toBe('No single address sent this ETH: name the wallet to refund');
    const named = await asAdmin.post(`/api/admin/payments/${payment.id}/refund`).send({ wallet: victimOwner });
    expect(named.status).toBe(201);
    expect((await kit.db.refund.findUniqueOrThrow({ where: { id: named.body.refundId } })).wallet).toBe(victimOwner);
  });

  it("ETH passed through a contract in the same transaction is not the contract's to sign for", async () => {
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, victimOwner, 0n);
    await kit.runIndexer();
    const order = await kit.placeOrder(victim);
    // The wallet holds nothing: it forwards what its caller sends with the call.
    const hash = await wallet.forward(kit.receiving, ROUND);
    await kit.runIndexer();
    const payment = await kit.waitForPayment(hash, ['UNRESOLVED']);
    expect(payment.fromAddress).toBe(wallet.address.toLowerCase());
    const res = await claim(victim, order.id, hash, victimOwner);
    expect(res.status).toBe(409);
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
    expect((await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({})).status).toBe(409);
    expect((await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({ wallet: victimOwner })).status).toBe(201);
  });

  it("a smart wallet that paid from its own balance still signs for its transfer", async () => {
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, victimOwner);
    await kit.runIndexer();
    const order = await kit.placeOrder(victim);
    const hash = await wallet.pay(kit.receiving, ROUND);
    await kit.runIndexer();
    await kit.waitForPayment(hash, ['UNRESOLVED']);
    const res = await claim(victim, order.id, hash, victimOwner);
    expect(res.status).toBe(200);
    expect(await kit.orderStatus(order.id)).toBe('PAID');
  });
});

describe('an overpayment', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit({ env: { PRICE_CACHE_SECONDS: '0' } });
    buyer = await kit.createUser({ name: 'Overpayer' });
    admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it("is refunded per transfer: a stranger's few cents carrying the tag never redirect the buyer's refund", async () => {
    const order = await kit.placeOrder(buyer);
    const paid = await kit.chain.sendAndWait(buyerWallet, kit.receiving, order.amountWei + ROUND);
    await kit.report(buyer, order.id, paid);
    await kit.waitForStatus(order.id, 'PAID');
    // Anyone who sees the tag on chain sends a few cents carrying it.
    const cents = 20n * 10n ** 12n + tagDigits(order.amountWei);
    const dust = await kit.chain.sendAndWait(stranger, kit.receiving, cents);
    await kit.runIndexer();
    await kit.waitForPayment(dust, ['COUNTED']);

    const asBuyer = await kit.as(buyer);
    const res = await asBuyer.post(`/api/orders/${order.id}/overpayment`).send({ action: 'refund' });
    expect(res.status).toBe(200);
    const refunds = await kit.db.refund.findMany({ where: { orderId: order.id }, orderBy: { amount: 'desc' } });
    expect(refunds.map((r) => r.wallet.toLowerCase())).toEqual([buyerWallet.toLowerCase(), stranger.toLowerCase()]);
    expect(BigInt(refunds[0]!.amount.toFixed(0))).toBeGreaterThanOrEqual(ROUND);
    expect(refunds[1]!.amount.toFixed(0)).toBe(cents.toString());
    // The stranger can redirect its own few cents, never the buyer's refund.
    const signature = await kit.chain.wallet.signMessage({ account: stranger, message: refundWalletMessage(refunds[0]!.id, stranger) });
    expect((await asBuyer.put(`/api/refunds/${refunds[0]!.id}/wallet`).send({ wallet: stranger, signature })).status).toBe(403);
    // Settled once: nothing is left to refund or credit.
    expect((await asBuyer.post(`/api/orders/${order.id}/overpayment`).send({ action: 'balance' })).status).toBe(409);
    expect((await (await kit.as(admin)).post('/api/admin/refunds').send({ orderId: order.id })).status).toBe(409);
  });

  it("dust carrying a buyer's tag pays nothing and holds nothing; a transfer of nothing is rejected", async () => {
    const order = await kit.placeOrder(buyer);
    const dust = await kit.chain.sendAndWait(stranger, kit.receiving, tagDigits(order.amountWei)); // worth less than a cent
    await kit.runIndexer();
    const payment = await kit.waitForPayment(dust, ['UNRESOLVED', 'COUNTED', 'LATE']);
    expect(payment).toMatchObject({ status: 'UNRESOLVED', orderId: null, reason: 'Worth less than a cent: it pays no order; an admin will refund it' });
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
    const nothing = await kit.chain.sendAndWait(stranger, kit.receiving, 0n);
    await kit.runIndexer();
    expect(await kit.waitForPayment(nothing, ['REJECTED', 'UNRESOLVED'])).toMatchObject({ status: 'REJECTED', reason: 'It moved no ETH to the shop' });
  });

  it("a part nobody paid alone never holds back the buyer's own refund", async () => {
    const order = await kit.placeOrder(buyer);
    const paid = await kit.chain.sendAndWait(buyerWallet, kit.receiving, order.amountWei + ROUND);
    await kit.report(buyer, order.id, paid);
    await kit.waitForStatus(order.id, 'PAID');
    // A stranger forwards a few cents with the tag through a contract: that part has no payer.
    const forwarder = await deploySmartWallet(kit.env.anvil!.rpcUrl, stranger, 0n);
    const cents = 20n * 10n ** 12n + tagDigits(order.amountWei);
    const forwarded = await forwarder.forward(kit.receiving, cents);
    await kit.runIndexer();
    await kit.waitForPayment(forwarded, ['COUNTED']);
    const res = await (await kit.as(buyer)).post(`/api/orders/${order.id}/overpayment`).send({ action: 'refund' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Refund requested: it will be sent to the address that paid. Part of it was not sent by a single address: the shop will refund it to a wallet you name');
    expect((await kit.db.refund.findMany({ where: { orderId: order.id } })).map((r) => r.wallet.toLowerCase())).toEqual([buyerWallet.toLowerCase()]);
    const left = (await (await kit.as(buyer)).get(`/api/orders/${order.id}`)).body.overpayment;
    expect(left).toMatchObject({ wei: cents.toString(), refundable: false, parts: [{ from: null, wei: cents.toString() }] });
    // An admin names the wallet for it.
    expect((await (await kit.as(admin)).post('/api/admin/refunds').send({ orderId: order.id, wallet: stranger })).status).toBe(201);
  });

  it('settled per transfer: an earlier transfer counted later never makes a stranger\'s part refundable twice', async () => {
    const order = await kit.placeOrder(buyer);
    const early = await kit.chain.sendAndWait(buyerWallet, kit.receiving, ROUND); // no tag: waits for a claim
    await kit.runIndexer();
    await kit.waitForPayment(early, ['UNRESOLVED']);
    const paid = await kit.chain.sendAndWait(buyerWallet, kit.receiving, order.amountWei);
    await kit.report(buyer, order.id, paid);
    await kit.waitForStatus(order.id, 'PAID');
    const cents = 20n * 10n ** 12n + tagDigits(order.amountWei);
    const dust = await kit.chain.sendAndWait(stranger, kit.receiving, cents);
    await kit.runIndexer();
    await kit.waitForPayment(dust, ['COUNTED']);
    const asBuyer = await kit.as(buyer);
    expect((await asBuyer.post(`/api/orders/${order.id}/overpayment`).send({ action: 'refund' })).status).toBe(200);
    // The buyer's own earlier transfer, claimed now, comes first in chain order.
    const signature = await kit.chain.wallet.signMessage({ account: buyerWallet, message: claimMessage(order.id, early) });
    expect((await asBuyer.put(`/api/orders/${order.id}/claim`).send({ txHash: early, signature })).status).toBe(200);
    expect((await asBuyer.post(`/api/orders/${order.id}/overpayment`).send({ action: 'refund' })).status).toBe(200);
    const refunds = await kit.db.refund.findMany({ where: { orderId: order.id } });
    expect(refunds.filter((r) => r.wallet.toLowerCase() === stranger.toLowerCase()).map((r) => r.amount.toFixed(0))).toEqual([cents.toString()]);
    const toBuyer = refunds.filter((r) => r.wallet.toLowerCase() === buyerWallet.toLowerCase()).reduce((sum, r) => sum + BigInt(r.amount.toFixed(0)), 0n);
    // All the buyer sent beyond the total came back to the buyer: both transfers, less the total.
    const due = (2500n * 10n ** 24n + 300_000_000_000n - 1n) / 300_000_000_000n;
    expect(toBuyer).toBe(ROUND + order.amountWei - due);
  });

  it("credited to a balance, is worth at most what its ETH is worth then: a locked price is no free option, paid or claimed", async () => {
    const order = await kit.placeOrder(buyer);
    // 1 ETH beyond the total, sent while the quote locks $3000.
    const paid = await kit.chain.sendAndWait(buyerWallet, kit.receiving, order.amountWei + 10n ** 18n);
    await kit.report(buyer, order.id, paid);
    await kit.waitForStatus(order.id, 'PAID');
    // Another 0.01 ETH without a tag, mined while the quote is still open, claimed onto the paid order.
    const untagged = await kit.chain.sendAndWait(buyerWallet, kit.receiving, ROUND);
    await kit.runIndexer();
    await kit.waitForPayment(untagged, ['UNRESOLVED']);
    await setEthUsdPrice(kit.env.anvil!.rpcUrl, '1500');
    try {
      const signature = await kit.chain.wallet.signMessage({ account: buyerWallet, message: claimMessage(order.id, untagged) });
      const claimed = await (await kit.as(buyer)).put(`/api/orders/${order.id}/claim`).send({ txHash: untagged, signature });
      expect(claimed.status).toBe(200);
      const detail = await (await kit.as(buyer)).get(`/api/orders/${order.id}`);
      const wei = BigInt(detail.body.overpayment.wei);
      // Worth $1515 and change at today's $1500, not the $3030 the locked quote valued it
      // at (each transfer's part is rounded down on its own: a cent less at most).
      const worthNow = Number((wei * 150_000_000_000n) / 10n ** 24n) / 100;
      const credit = detail.body.overpayment.creditUsd as number;
      expect(credit).toBeLessThanOrEqual(worthNow);
      expect(credit).toBeGreaterThanOrEqual(worthNow - 0.01);
      expect(worthNow).toBeLessThan(1516);
      const before = (await kit.db.user.findUniqueOrThrow({ where: { id: buyer.id } })).activeBalance;
      const res = await (await kit.as(buyer)).post(`/api/orders/${order.id}/overpayment`).send({ action: 'balance' });
      expect(res.status).toBe(200);
      const after = (await kit.db.user.findUniqueOrThrow({ where: { id: buyer.id } })).activeBalance;
      expect(after.minus(before).toNumber()).toBe(credit);
    } finally {
      await setEthUsdPrice(kit.env.anvil!.rpcUrl, '3000');
    }
  });
});

describe('a cancelled order', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit();
    buyer = await kit.createUser({ name: 'Changed Mind' });
    admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('keeps a transfer that arrives for it later: LATE on the cancelled order, refundable, never another order\'s', async () => {
    const order = await kit.placeOrder(buyer);
    expect((await (await kit.as(buyer)).post(`/api/orders/${order.id}/cancel`)).status).toBe(200);
    // The buyer's wallet had the payment on its way.
    const hash = await kit.chain.sendAndWait(buyerWallet, kit.receiving, order.amountWei);
    await kit.runIndexer();
    const payment = await kit.waitForPayment(hash, ['LATE', 'UNRESOLVED', 'COUNTED']);
    expect(payment).toMatchObject({ status: 'LATE', orderId: order.id, reason: 'Its order was cancelled; an admin will refund it' });
    expect(await kit.orderStatus(order.id)).toBe('CANCELLED');
    const refund = await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({});
    expect(refund.status).toBe(201);
    const detail = await (await kit.as(buyer)).get(`/api/orders/${order.id}`);
    expect(detail.body.refunds).toEqual([expect.objectContaining({ wallet: buyerWallet.toLowerCase(), amountWei: order.amountWei.toString() })]);
  });

  it('paid in part: what it received waits for an admin (LATE), to be refunded', async () => {
    const order = await kit.placeOrder(buyer, 2);
    const half = order.amountWei / 2n - ((order.amountWei / 2n) % 10n ** 12n) + tagDigits(order.amountWei);
    const hash = await kit.chain.sendAndWait(buyerWallet, kit.receiving, half);
    await kit.report(buyer, order.id, hash);
    await kit.waitForStatus(order.id, 'UNDERPAID');
    expect((await (await kit.as(buyer)).post(`/api/orders/${order.id}/cancel`)).status).toBe(200);
    expect(await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } })).toMatchObject({ status: 'LATE', orderId: order.id });
    expect(await kit.db.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: 'CANCELLED', paidUsd: expect.anything() });
    expect((await (await kit.as(admin)).post(`/api/admin/payments/${(await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } })).id}/refund`).send({})).status).toBe(201);
  });

  it('a claim never revives an order whose payment window is over, at its old price', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(buyerWallet, kit.receiving, ROUND);
    await kit.runIndexer();
    await kit.waitForPayment(hash, ['UNRESOLVED']);
    await kit.lapse(order.id, { window: true });
    const signature = await kit.chain.wallet.signMessage({ account: buyerWallet, message: claimMessage(order.id, hash) });
    const claim = async () => (await kit.as(buyer)).put(`/api/orders/${order.id}/claim`).send({ txHash: hash, signature });
    // Its window is over, though the expiry job has not run yet: no claim either.
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
    const before = await claim();
    expect(before.status).toBe(409);
    expect(before.body.message).toBe('This order can no longer be paid (its payment window is over): the shop will assign or refund your transfer');
    await expireOrders(kit.db, kit.env.config);
    expect((await claim()).status).toBe(409);
    expect(await kit.orderStatus(order.id)).toBe('EXPIRED');
  });

  it('cannot be cancelled while a payment for it is being confirmed', async () => {
    const order = await kit.placeOrder(buyer);
    await kit.chain.setAutomine(false);
    try {
      const hash = await kit.chain.send(buyerWallet, kit.receiving, order.amountWei);
      await kit.report(buyer, order.id, hash);
      await kit.waitForStatus(order.id, 'VERIFYING');
      const res = await (await kit.as(buyer)).post(`/api/orders/${order.id}/cancel`);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('A payment for this order is being confirmed on chain: it cannot be cancelled now');
    } finally {
      await kit.chain.setAutomine(true);
    }
    await kit.chain.mine(1);
    await kit.waitForStatus(order.id, 'PAID');
  });
});

describe('a claim on a transfer still being confirmed', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit({ env: { PAYMENT_CONFIRMATIONS: '3' } });
    buyer = await kit.createUser({ name: 'Eager' });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('says what it waits for, and goes through as soon as the transfer is confirmed', async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await kit.chain.sendAndWait(buyerWallet, kit.receiving, ROUND);
    await kit.report(buyer, order.id, hash);
    await waitFor('the transfer to be seen mined', async () => (await kit.db.payment.findFirst({ where: { depositAddress: null, txHash: hash.toLowerCase() } }))?.blockNumber != null);
    const signature = await kit.chain.wallet.signMessage({ account: buyerWallet, message: claimMessage(order.id, hash) });
    const early = await (await kit.as(buyer)).put(`/api/orders/${order.id}/claim`).send({ txHash: hash, signature });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('This transfer is still being confirmed on chain (it has 1 of 3 confirmations): claim it again once it is confirmed');
    await kit.chain.mine(2);
    // At once: the claim verifies it, it does not wait for the sweeper.
    const res = await (await kit.as(buyer)).put(`/api/orders/${order.id}/claim`).send({ txHash: hash, signature });
    expect(res.status).toBe(200);
    expect(await kit.orderStatus(order.id)).toBe('PAID');
  });
});

describe('a pending hash reported by someone else first', () => {
  let kit: PaymentKit;
  let victim: TestUser;
  let attacker: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit();
    victim = await kit.createUser({ name: 'Victim' });
    attacker = await kit.createUser({ name: 'Front-runner' });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.chain.setAutomine(true);
    await kit?.close();
  });

  it("still holds the victim's order open while it waits in the mempool", async () => {
    const order = await kit.placeOrder(victim);
    const decoy = await kit.placeOrder(attacker);
    await kit.chain.setAutomine(false);
    try {
      const hash = await kit.chain.send(buyerWallet, kit.receiving, order.amountWei);
      // The attacker watches the mempool and reports the victim's hash for its own order first.
      expect((await kit.report(attacker, decoy.id, hash)).status).toBe(202);
      expect((await kit.report(victim, order.id, hash)).status).toBe(202);
      const payment = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
      await verifyPayment({ ...kit.workerRuntime, currentAnswer: async () => 300_000_000_000n }, payment.id);
      expect(await kit.orderStatus(order.id)).toBe('VERIFYING');
      expect(await kit.orderStatus(decoy.id)).toBe('PENDING_PAYMENT');
      // The window runs out while the transaction waits: the order is held, not expired.
      await kit.lapse(order.id, { window: true });
      await kit.db.order.update({ where: { id: order.id }, data: { paymentDeadline: new Date(Date.now() - 60_000) } });
      await expireOrders(kit.db, kit.env.config);
      expect(await kit.orderStatus(order.id)).toBe('VERIFYING');
      await kit.chain.mine(1);
      await kit.waitForStatus(order.id, 'PAID');
      expect(await kit.orderStatus(decoy.id)).toBe('PENDING_PAYMENT');
    } finally {
      await kit.chain.setAutomine(true);
    }
  });
});

describe('value that moves only in another version of a block', () => {
  let kit: PaymentKit;
  let buyer: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit();
    buyer = await kit.createUser({ name: 'Sweeper' });
    admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    await kit.runIndexer();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('a contract payment rejected as moving nothing is tracked again when a reorganization re-mines it with value', async () => {
    const odd = await deployOddPayer(kit.env.anvil!.rpcUrl, stranger);
    await kit.runIndexer();
    const order = await kit.placeOrder(buyer);
    // The contract holds nothing yet: its sweep pays the shop nothing.
    const sweep = await odd.call('sweep', [kit.receiving]);
    const raw = (await kit.chain.test.request({ method: 'eth_getRawTransactionByHash' as never, params: [sweep] as never })) as Hex;
    await kit.report(buyer, order.id, sweep);
    const rejected = await kit.waitForPayment(sweep, ['REJECTED', 'COUNTED', 'UNRESOLVED']);
    expect(rejected.status).toBe('REJECTED');
    await kit.runIndexer();
    // The new chain funds the contract first: the same sweep now pays the order's amount.
    const fund = { from: ANVIL_ACCOUNTS[5], to: odd.address, value: `0x${order.amountWei.toString(16)}`, gas: '0x30d40' };
    await kit.chain.test.request({ method: 'anvil_reorg' as never, params: [1, [[fund, 0], [raw, 0]]] as never });
    await kit.runIndexer();
    const payment = await kit.waitForPayment(sweep, ['COUNTED', 'UNRESOLVED', 'LATE']);
    expect(payment.amount?.toFixed(0)).toBe(order.amountWei.toString());
    await kit.waitForStatus(order.id, 'PAID');
  });

  it('an unexplained inflow is never refunded for ETH a transfer traced in its block already counts', async () => {
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, victimOwner);
    await kit.runIndexer();
    const order = await kit.placeOrder(buyer);
    const hash: Hash = await wallet.pay(kit.receiving, order.amountWei);
    await kit.runIndexer({ tracer: createTracer(kit.workerRuntime.chain, 'off') });
    const inflow = await kit.db.payment.findFirstOrThrow({ where: { source: 'INFLOW', status: 'UNRESOLVED' } });
    await kit.report(buyer, order.id, hash);
    await kit.waitForStatus(order.id, 'PAID');
    // What a settlement that stopped before taking its value out of the inflow left behind.
    const counted = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
    await kit.db.payment.update({ where: { id: counted.id }, data: { explainsInflowOf: null } });
    await kit.db.payment.create({ data: { ...inflow, updatedAt: undefined, createdAt: undefined } });
    const res = await (await kit.as(admin)).post(`/api/admin/payments/${inflow.id}/refund`).send({ wallet: wallet.address });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This ETH turned out to be a transfer through a contract, found by tracing its block: see that transfer');
    expect(await kit.db.payment.findUnique({ where: { id: inflow.id } })).toBeNull();
    expect(await kit.orderStatus(order.id)).toBe('PAID');
  });

  it('an unexplained inflow refunded before the node could trace it is not counted again when the transfer is traced later', async () => {
    const wallet = await deploySmartWallet(kit.env.anvil!.rpcUrl, victimOwner);
    await kit.runIndexer();
    const order = await kit.placeOrder(buyer);
    const hash: Hash = await wallet.pay(kit.receiving, order.amountWei);
    await kit.runIndexer({ tracer: createTracer(kit.workerRuntime.chain, 'off') });
    const inflow = await kit.db.payment.findFirstOrThrow({ where: { source: 'INFLOW', status: 'UNRESOLVED' } });
    expect(inflow.amount?.toFixed(0)).toBe(order.amountWei.toString());
    expect((await (await kit.as(admin)).post(`/api/admin/payments/${inflow.id}/refund`).send({ wallet: wallet.address })).status).toBe(201);
    // The buyer reports the hash; the worker's node traces it: the same ETH is being refunded.
    await kit.report(buyer, order.id, hash);
    const payment = await kit.waitForPayment(hash, ['COUNTED', 'REFUNDED', 'UNRESOLVED', 'LATE']);
    expect(payment.status).toBe('REFUNDED');
    expect(await kit.orderStatus(order.id)).not.toBe('PAID');
  });
});
