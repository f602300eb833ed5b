import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hash } from 'viem';
import { applyLedger } from '@shop/core';
import { formatEth, refundWalletMessage } from '@shop/core/contract';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { freePort, startSmtpServer } from '../../../scripts/testing/smtp.ts';
import { deploySmartWallet } from '../../../scripts/testing/smart-wallet.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';
import { closeMailer } from '../processors/email.ts';

/**
 * Money out (issue "Refunds, verified payouts and signed webhooks"): refunds of an
 * overpayment and of a late transfer, and cashouts, are PAID only once the worker read
 * the admin's payout transaction on anvil; a wrong recipient, a short value and a reused
 * hash are refused with the reason shown. The buyer is e-mailed the hash.
 */
const payer = ANVIL_ACCOUNTS[3];
const treasury = ANVIL_ACCOUNTS[5];
const stranger = ANVIL_ACCOUNTS[4];
const FINNEY = 10n ** 15n;

let kit: PaymentKit;
let admin: TestUser;
let buyer: TestUser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  const port = await freePort();
  smtp = await startSmtpServer(port);
  kit = await createPaymentKit({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, PAYOUT_RECHECK_MS: '200', PAYOUT_TOLERANCE_BPS: '50' } });
  admin = await kit.createUser({ isAdmin: true });
  buyer = await kit.createUser({ name: 'Rita Refund' });
});
afterAll(async () => {
  await kit?.close();
  closeMailer();
  await smtp?.stop();
});

async function pay(from: Address, to: Address, value: bigint): Promise<Hash> {
  return kit.chain.sendAndWait(from, to, value);
}

async function mailsTo(email: string, count: number, subject: RegExp) {
  return waitFor(`${count} e-mails to ${email}`, async () => {
    const mails = smtp.messages.filter((m) => m.to && 'text' in m.to && m.to.text === email && subject.test(m.subject ?? ''));
    return mails.length >= count ? mails : null;
  });
}

describe('refunds and verified payouts', () => {
  it('an admin refunds an overpayment and a late transfer; only transactions that pay them exactly, to the right wallet, make them PAID', async () => {
    // An order paid 0.005 ETH too much (the tag digits are untouched).
    const over = await kit.placeOrder(buyer);
    const overHash = await pay(payer, kit.receiving, over.amountWei + 5n * FINNEY);
    await kit.report(buyer, over.id, overHash);
    await kit.waitForStatus(over.id, 'PAID');
    const detail = await (await kit.as(buyer)).get(`/api/orders/${over.id}`);
    // In the ETH it arrived as: all it sent beyond the $25 due at its quote's $3000 (the
    // quote's rounding up and tag digits included), not re-valued at another price.
    const answer = 3000n * 10n ** 8n;
    const dueWei = (2500n * 10n ** 24n + answer - 1n) / answer;
    const overWei = over.amountWei + 5n * FINNEY - dueWei;
    const part = { txHash: overHash.toLowerCase(), from: payer.toLowerCase(), asset: 'ETH', amount: overWei.toString(), wei: overWei.toString(), eth: formatEth(overWei), usd: 15 };
    expect(detail.body.overpayment).toEqual({ usd: 15, creditUsd: 15, wei: overWei.toString(), eth: formatEth(overWei), from: payer.toLowerCase(), refundable: true, parts: [part] });
    // A transfer with the order's tag mined after its quote lapsed, worth far less than due: LATE.
    const late = await kit.placeOrder(buyer);
    await kit.lapse(late.id);
    const lateHash = await pay(payer, kit.receiving, 2n * FINNEY + (late.amountWei % 10n ** 12n));
    await kit.report(buyer, late.id, lateHash);
    const latePayment = await kit.waitForPayment(lateHash, ['LATE']);

    const asAdmin = await kit.as(admin);
    const overRes = await asAdmin.post('/api/admin/refunds').send({ orderId: over.id });
    expect(overRes.status).toBe(201);
    expect(overRes.body).toEqual([expect.objectContaining({ source: 'OVERPAYMENT', order: over.id, wallet: payer.toLowerCase(), walletSource: 'sender', status: 'REQUESTED', amountUsd: 15 })]);
    const overRefund = overRes.body[0] as { _id: string; amountWei: string };
    // Settled: it cannot be refunded twice, nor credited to the buyer's balance.
    expect((await asAdmin.post('/api/admin/refunds').send({ orderId: over.id })).status).toBe(409);
    expect((await (await kit.as(buyer)).post(`/api/orders/${over.id}/overpayment`).send({ action: 'balance' })).status).toBe(409);
    const lateRes = await asAdmin.post(`/api/admin/payments/${latePayment.id}/refund`).send({});
    expect(lateRes.status).toBe(201);
    const lateRefund = (await kit.db.refund.findUniqueOrThrow({ where: { id: lateRes.body.refundId } }));
    expect(lateRefund.amount.toFixed(0)).toBe(latePayment.amount!.toFixed(0));
    // The late transfer no longer waits for an assignment; the buyer sees both refunds on their orders.
    expect((await asAdmin.post(`/api/admin/payments/${latePayment.id}/assign`).send({ orderId: late.id })).status).toBe(409);
    expect((await (await kit.as(buyer)).get(`/api/orders/${late.id}`)).body.refunds).toEqual([expect.objectContaining({ _id: lateRefund.id, status: 'REQUESTED' })]);

    const due = BigInt(overRefund.amountWei);
    // Wrong recipient: refused, and the refund stays open with the reason.
    const wrong = await pay(treasury, stranger, due);
    expect((await kit.markPayoutPaid(admin, 'refunds', overRefund._id, wrong)).status).toBe(202);
    expect((await kit.payoutVerdict('refund', overRefund._id)).reason).toMatch(/sent nothing to the requested wallet/);
    // Short: 90% of what is due.
    const short = await pay(treasury, payer, (due * 9n) / 10n);
    expect((await kit.markPayoutPaid(admin, 'refunds', overRefund._id, short)).status).toBe(202);
    expect((await kit.payoutVerdict('refund', overRefund._id)).reason).toContain(`short of the ${formatEth(due)} ETH due (0.50% tolerance)`);
    expect((await kit.db.refund.findUniqueOrThrow({ where: { id: overRefund._id } })).status).toBe('REQUESTED');
    // A payment to the shop is not its payout: it sent nothing to the refund's wallet.
    expect((await kit.markPayoutPaid(admin, 'refunds', overRefund._id, overHash)).status).toBe(202);
    expect((await kit.payoutVerdict('refund', overRefund._id)).reason).toMatch(/^It sent nothing to the requested wallet/);
    // Right: PAID with its hash.
    const good = await pay(treasury, payer, due);
    expect((await kit.markPayoutPaid(admin, 'refunds', overRefund._id, good)).status).toBe(202);
    expect((await kit.payoutVerdict('refund', overRefund._id)).status).toBe('ACCEPTED');
    const paid = (await (await kit.as(admin)).get('/api/admin/refunds')).body.find((r: { _id: string }) => r._id === overRefund._id);
    expect(paid).toMatchObject({ status: 'PAID', payoutTxHash: good.toLowerCase(), check: { status: 'ACCEPTED' } });
    // The same hash cannot pay the late refund too.
    const reused = await kit.markPayoutPaid(admin, 'refunds', lateRefund.id, good);
    expect(reused.status).toBe(409);
    expect(reused.body.message).toBe('This transaction already pays a payout (or part of one)');
    const lateGood = await pay(treasury, payer, BigInt(lateRefund.amount.toFixed(0)));
    expect((await kit.markPayoutPaid(admin, 'refunds', lateRefund.id, lateGood)).status).toBe(202);
    expect((await kit.payoutVerdict('refund', lateRefund.id)).status).toBe('ACCEPTED');
    expect(await kit.db.payment.findUniqueOrThrow({ where: { id: latePayment.id } })).toMatchObject({ status: 'REFUNDED', reason: `Refunded in ${lateGood.toLowerCase()}` });
    // Paid once: a second hash for a paid refund is refused.
    expect((await kit.markPayoutPaid(admin, 'refunds', lateRefund.id, wrong)).status).toBe(409);

    // The buyer is told each refund's hash, once.
    const mails = await mailsTo(buyer.email, 2, /^Refund of/);
    expect(mails.map((m) => m.text).join('\n')).toContain(good.toLowerCase());
    expect(mails.map((m) => m.text).join('\n')).toContain(lateGood.toLowerCase());
  });

  it('a cashout waits while its payout is unmined, cannot be rejected meanwhile, and is PAID once confirmed', async () => {
    const user = await kit.createUser({ name: 'Cash Carl' });
    await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '30.00', kind: 'DAILY_CREDIT', idempotencyKey: `seed:${user.id}` }]);
    const wallet = ANVIL_ACCOUNTS[2];
    expect((await (await kit.as(user)).post('/api/users/cashout').send({ wallet })).status).toBe(200);
    const cashout = await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id } });
    // $30 at $3000 = 0.01 ETH.
    await kit.chain.setAutomine(false);
    let hash: Hash;
    try {
      hash = await kit.chain.send(treasury, wallet, 10n ** 16n);
      expect((await kit.markPayoutPaid(admin, 'cashouts', cashout.id, hash)).status).toBe(202);
      await kit.payoutVerdict('cashout', cashout.id, ['CHECKING']);
      await waitFor('the check to wait for mining', async () => (await kit.db.payoutCheck.findFirst({ where: { cashoutId: cashout.id, reason: { startsWith: 'Not mined yet' } } })) !== null);
      const list = await (await kit.as(admin)).get('/api/admin/cashouts');
      expect(list.body.find((c: { _id: string }) => c._id === cashout.id)).toMatchObject({ status: expect.stringMatching(/^(REQUESTED|NOTIFIED)$/), check: { status: 'CHECKING', reason: 'Not mined yet: watched until it is mined, or its nonce is used by another transaction' } });
      const reject = await (await kit.as(admin)).post(`/api/admin/cashouts/${cashout.id}/reject`);
      expect(reject.status).toBe(409);
      // A second hash while the first is being checked is refused too.
      expect((await kit.markPayoutPaid(admin, 'cashouts', cashout.id, `0x${'ab'.repeat(32)}`)).status).toBe(409);
    } finally {
      await kit.chain.mine(1);
      await kit.chain.setAutomine(true);
    }
    expect((await kit.payoutVerdict('cashout', cashout.id)).status).toBe('ACCEPTED');
    expect(await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).toMatchObject({ status: 'PAID', payoutTxHash: hash.toLowerCase() });
    const [mail] = await mailsTo(user.email, 1, /cashout/);
    expect(mail!.text).toContain(hash.toLowerCase());
    expect(mail!.text).toContain('$30.00');
  });

  it("the buyer turns an overpayment into active balance once; a refund's wallet changes only by the sender's signature", async () => {
    const order = await kit.placeOrder(buyer);
    const hash = await pay(payer, kit.receiving, order.amountWei + 2n * FINNEY);
    await kit.report(buyer, order.id, hash);
    await kit.waitForStatus(order.id, 'PAID');
    const before = (await kit.db.user.findUniqueOrThrow({ where: { id: buyer.id } })).activeBalance;
    // Another buyer cannot touch it.
    const other = await kit.createUser();
    expect((await (await kit.as(other)).post(`/api/orders/${order.id}/overpayment`).send({ action: 'balance' })).status).toBe(404);
    const res = await (await kit.as(buyer)).post(`/api/orders/${order.id}/overpayment`).send({ action: 'balance' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('$6.00 added to your active balance');
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: buyer.id } })).activeBalance.minus(before).toFixed(2)).toBe('6.00');
    expect((await (await kit.as(buyer)).post(`/api/orders/${order.id}/overpayment`).send({ action: 'refund' })).status).toBe(409);
    expect((await (await kit.as(buyer)).get(`/api/orders/${order.id}`)).body.overpayment).toBeNull();

    // A round amount with no tag: UNRESOLVED; refunded to its sender unless the sender signs for another wallet.
    const round = await pay(payer, kit.receiving, 7n * FINNEY);
    await kit.runIndexer();
    const payment = await kit.waitForPayment(round, ['UNRESOLVED']);
    const created = await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({});
    expect(created.status).toBe(201);
    const refundId = created.body.refundId as string;
    const target = ANVIL_ACCOUNTS[6];
    const message = refundWalletMessage(refundId, target);
    const forged = await kit.chain.wallet.signMessage({ account: stranger, message });
    expect((await (await kit.as(buyer)).put(`/api/refunds/${refundId}/wallet`).send({ wallet: target, signature: forged })).status).toBe(403);
    const signature = await kit.chain.wallet.signMessage({ account: payer, message });
    const changed = await (await kit.as(buyer)).put(`/api/refunds/${refundId}/wallet`).send({ wallet: target, signature });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ wallet: target, walletSource: 'claim' });
    // A payout to neither the sender nor the wallet it signed for is refused.
    const elsewhere = await pay(treasury, stranger, 7n * FINNEY);
    await kit.markPayoutPaid(admin, 'refunds', refundId, elsewhere);
    expect((await kit.payoutVerdict('refund', refundId)).status).toBe('REFUSED');
    // Paid from the shop's multisig: the value reaches the wallet through an internal call, read from the traces.
    const multisig = await deploySmartWallet(kit.env.anvil!.rpcUrl, treasury);
    const toNew = await multisig.pay(target, 7n * FINNEY);
    await kit.markPayoutPaid(admin, 'refunds', refundId, toNew);
    expect((await kit.payoutVerdict('refund', refundId)).status).toBe('ACCEPTED');
  });

  /** A round transfer from `payer` (no tag: UNRESOLVED) that an admin refunds to its sender; the refund's id. */
  async function refundedTransfer(value: bigint): Promise<string> {
    const round = await pay(payer, kit.receiving, value);
    await kit.runIndexer();
    const payment = await kit.waitForPayment(round, ['UNRESOLVED']);
    const created = await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({});
    expect(created.status).toBe(201);
    return created.body.refundId as string;
  }
  /** The sender signs the refund over to `wallet`. */
  async function redirect(refundId: string, wallet: Address) {
    const signature = await kit.chain.wallet.signMessage({ account: payer, message: refundWalletMessage(refundId, wallet) });
    const changed = await (await kit.as(buyer)).put(`/api/refunds/${refundId}/wallet`).send({ wallet, signature });
    expect(changed.status).toBe(200);
  }

  it("a payout to the wallet a refund had before the sender's change pays it only when mined before the change", async () => {
    const refundId = await refundedTransfer(9n * FINNEY);
    // Sent to the sender while that was the refund's wallet; then the sender redirects it.
    const before = await pay(treasury, payer, 9n * FINNEY);
    await redirect(refundId, ANVIL_ACCOUNTS[6]);
    // Sent to the former wallet after the change: not this refund's payout.
    const after = await pay(treasury, payer, 9n * FINNEY);
    expect((await kit.markPayoutPaid(admin, 'refunds', refundId, after)).status).toBe(202);
    const refused = await kit.payoutVerdict('refund', refundId);
    expect(refused.status).toBe('REFUSED');
    expect(refused.reason).toMatch(/^It sent nothing to the requested wallet/);
    expect((await kit.db.refund.findUniqueOrThrow({ where: { id: refundId } })).status).toBe('REQUESTED');
    // The one sent before the change still pays it.
    expect((await kit.markPayoutPaid(admin, 'refunds', refundId, before)).status).toBe(202);
    expect((await kit.payoutVerdict('refund', refundId)).status).toBe('ACCEPTED');
  });

  it("a large refund approved for its new wallet is not paid by a payout to its former one", async () => {
    const approver = await kit.createUser({ isAdmin: true });
    // 0.2 ETH, $600 at $3000: more than one admin may pay alone.
    const refundId = await refundedTransfer(200n * FINNEY);
    expect(await kit.db.approval.count({ where: { subjectId: refundId, status: 'PENDING' } })).toBe(1);
    const toFormer = await pay(treasury, payer, 200n * FINNEY);
    const target = ANVIL_ACCOUNTS[6];
    await redirect(refundId, target);
    // Asked again for the new wallet, and approved by the second admin.
    const asked = await (await kit.as(admin)).post('/api/admin/approvals').send({ kind: 'refund', id: refundId, reason: 'A large refund the buyer asked for' });
    expect(asked.body).toMatchObject({ status: 'PENDING', wallet: target });
    expect((await (await kit.as(approver)).post(`/api/admin/approvals/${asked.body._id}/approve`)).status).toBe(200);
    // The payout that reached the former wallet (before the change) is not what the second admin approved.
    expect((await kit.markPayoutPaid(admin, 'refunds', refundId, toFormer)).status).toBe(202);
    const refused = await kit.payoutVerdict('refund', refundId);
    expect(refused.status).toBe('REFUSED');
    expect(refused.reason).toMatch(/^It sent nothing to the requested wallet/);
    const paid = await pay(treasury, target, 200n * FINNEY);
    expect((await kit.markPayoutPaid(admin, 'refunds', refundId, paid)).status).toBe(202);
    expect((await kit.payoutVerdict('refund', refundId)).status).toBe('ACCEPTED');
  });

  it('refuses bad input with clear 4xx answers', async () => {
    const asAdmin = await kit.as(admin);
    expect((await asAdmin.post('/api/admin/refunds').send({})).status).toBe(400);
    expect((await asAdmin.post('/api/admin/refunds').send({ orderId: 'nope' })).status).toBe(400);
    expect((await asAdmin.post('/api/admin/refunds').send({ orderId: crypto.randomUUID() })).status).toBe(404);
    expect((await asAdmin.post(`/api/admin/refunds/${crypto.randomUUID()}/paid`).send({ payoutTxHash: `0x${'12'.repeat(32)}` })).status).toBe(404);
    expect((await asAdmin.post(`/api/admin/refunds/${crypto.randomUUID()}/paid`).send({ payoutTxHash: 'nope' })).status).toBe(400);
    expect((await (await kit.as(buyer)).get('/api/admin/refunds')).status).toBe(403);
    expect((await (await kit.as(buyer)).post(`/api/orders/${crypto.randomUUID()}/overpayment`).send({ action: 'gift' })).status).toBe(400);
  });
});
