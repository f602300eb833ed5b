import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Address } from 'viem';
import { applyLedger, priceToAnswer, tokenDigest, usdCentsToWei } from '@shop/core';
import { toCents } from '@shop/core/contract';
import type { ParsedMail } from 'mailparser';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { setEthUsdPrice } from '../../../scripts/lib/price-feed-mock.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { freePort, startSmtpServer } from '../../../scripts/testing/smtp.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';
import { closeMailer } from '../processors/email.ts';

/**
 * Money leaving a shopper's account for a wallet the account was never paid to (issue 36):
 * the cashout waits NEW_WALLET_HOLD_HOURS, the account's address is told at once with a
 * link that cancels it, the worker hands it to the admins when the wait is over, and a
 * payout already on its way is never undone by the link.
 */
const treasury = ANVIL_ACCOUNTS[5];
const OPERATOR = 'ops@example.com';
/** Wallets of the shoppers: nobody's payout address. */
const walletOf = (n: number) => `0x${n.toString(16).padStart(2, '0').repeat(20)}` as Address;

let kit: PaymentKit;
let admin: TestUser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  const port = await freePort();
  smtp = await startSmtpServer(port);
  kit = await createPaymentKit({
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, OPERATOR_EMAIL: OPERATOR, PUBLIC_URL: 'http://shop.test', NEW_WALLET_HOLD_HOURS: '24', PAYOUT_RECHECK_MS: '200', PRICE_CACHE_SECONDS: '0', PAYOUT_ADDRESSES: treasury },
  });
  admin = await kit.createUser({ isAdmin: true });
});
afterAll(async () => {
  await kit?.close();
  closeMailer();
  await smtp?.stop();
});

const recipients = (m: ParsedMail) => (m.to && 'text' in m.to ? m.to.text : '');
async function mailsTo(email: string, count: number, subject: RegExp): Promise<ParsedMail[]> {
  return waitFor(`${count} e-mail(s) to ${email} about ${subject}`, async () => {
    const mails = smtp.messages.filter((m) => recipients(m) === email && subject.test(m.subject ?? ''));
    return mails.length >= count ? mails : null;
  });
}
const cancelToken = (mail: ParsedMail) => /http:\/\/shop\.test\/cashout\/cancel\?token=([\w-]+)/.exec(mail.text ?? '')?.[1];
const cancel = (token: string) => request(kit.app).post('/api/users/cashout/cancel').send({ token });
const balanceOf = async (userId: string) => (await kit.db.user.findUniqueOrThrow({ where: { id: userId } })).activeBalance.toFixed(2);
const runSweep = () => kit.workerRuntime.queues['payment-sweep'].add('payment-sweep', {});
/** One run of the worker's sweep, to its end. */
async function sweepOnce(): Promise<void> {
  const job = await runSweep();
  await waitFor('the sweep to finish', async () => (await kit.workerRuntime.queues['payment-sweep'].getJob(job.id!))?.isCompleted());
}

async function shopperWith(name: string, amount: string): Promise<TestUser> {
  const user = await kit.createUser({ name });
  await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount, kind: 'DAILY_CREDIT', idempotencyKey: `seed:${user.id}:${amount}` }]);
  return user;
}

describe('a cashout to a wallet the account was never paid to', () => {
  it('waits NEW_WALLET_HOLD_HOURS with its amount held; the account is e-mailed at once; the link cancels it once and the balance comes back once', async () => {
    const wallet = walletOf(0x61);
    const user = await shopperWith('Nora New', '650.00');
    const as = await kit.as(user);
    const res = await as.post('/api/users/cashout').send({ wallet });
    expect(res.status).toBe(200);
    expect(res.body.activeBalance).toBe(0);
    const cashout = await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id } });
    expect(cashout.status).toBe('HELD');
    expect(cashout.holdUntil!.getTime() - cashout.createdAt.getTime()).toBe(24 * 3600_000);
    expect(await balanceOf(user.id)).toBe('0.00');

    // The account's own address hears of it at once, with the wallet, the amount, the time and the link.
    const [mail] = await mailsTo(user.email, 1, /new wallet/i);
    expect(mail!.text).toContain(wallet);
    expect(mail!.text).toContain('$650.00');
    expect(mail!.text).toContain(`${cashout.holdUntil!.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    const token = cancelToken(mail!);
    expect(token).toBeTruthy();
    // The database keeps the link's hash, never the link (the e-mail is out).
    const link = await waitFor('the sealed token erased once the e-mail is out', async () => {
      const row = await kit.db.walletCancelLink.findFirstOrThrow({ where: { cashoutId: cashout.id } });
      return row.sealedToken === null ? row : null;
    });
    expect(link.tokenHash).toBe(tokenDigest(token!));
    expect(JSON.stringify(link)).not.toContain(token!);

    // Nobody pays it meanwhile: the sweeper leaves it, the operator is not asked, an admin's hash is refused.
    await sweepOnce();
    expect((await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).status).toBe('HELD');
    expect(smtp.messages.filter((m) => recipients(m) === OPERATOR && (m.text ?? '').includes(wallet))).toHaveLength(0);
    const marked = await kit.markPayoutPaid(admin, 'cashouts', cashout.id, `0x${'cd'.repeat(32)}`);
    expect(marked.status).toBe(409);
    expect(marked.body.message).toMatch(/^This cashout waits until .* UTC: the wallet is new to the account$/);
    expect((await as.get('/api/users/profile/cashouts')).body).toEqual([expect.objectContaining({ _id: cashout.id, status: 'HELD', holdUntil: cashout.holdUntil!.toISOString() })]);

    // Three clicks at once, then one more: one cancellation, the same answer each time.
    const clicks = await Promise.all([cancel(token!), cancel(token!), cancel(token!)]);
    const again = await cancel(token!);
    for (const c of [...clicks, again]) {
      expect(c.status).toBe(200);
      expect(c.body).toEqual(clicks[0]!.body);
    }
    expect(clicks[0]!.body).toMatchObject({ wallet: wallet.toLowerCase(), cancelled: 1, returnedUsd: 650, stillPaying: 0 });
    expect(await balanceOf(user.id)).toBe('650.00');
    expect((await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).status).toBe('CANCELLED');
    const entries = await kit.db.ledgerEntry.findMany({ where: { cashoutId: cashout.id } });
    expect(entries.map((e) => e.amount.toFixed(2)).sort()).toEqual(['-650.00', '650.00']);

    // Whoever held the session is signed out; the wallet is blocked for the account.
    expect((await as.get('/api/users/profile')).status).toBe(401);
    const owner = await kit.as(user);
    const blocked = await owner.post('/api/users/cashout').send({ wallet: wallet.toLowerCase() });
    expect(blocked.status).toBe(400);
    expect(blocked.body.message).toBe('This wallet was blocked for your account from a security e-mail: cash out to another wallet.');
    expect(await balanceOf(user.id)).toBe('650.00');
    // A cancelled hold is never released later.
    await kit.db.cashoutRequest.updateMany({ where: { id: cashout.id }, data: { holdUntil: new Date(Date.now() - 1000) } });
    await sweepOnce();
    expect((await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).status).toBe('CANCELLED');
  });

  it('an unknown or expired link changes nothing', async () => {
    expect(await cancel('x'.repeat(43))).toMatchObject({ status: 400, body: { message: 'This link is not valid, or it has expired.' } });
    const wallet = walletOf(0x62);
    const user = await shopperWith('Ed Expired', '30.00');
    expect((await (await kit.as(user)).post('/api/users/cashout').send({ wallet })).status).toBe(200);
    const [mail] = await mailsTo(user.email, 1, /new wallet/i);
    await kit.db.walletCancelLink.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await cancel(cancelToken(mail!)!)).toMatchObject({ status: 400, body: { message: 'This link is not valid, or it has expired.' } });
    expect((await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id } })).status).toBe('HELD');
  });

  it('when the wait is over the worker hands it to the admins; once paid, the wallet is known; a payout on its way is never undone by the link', async () => {
    const wallet = walletOf(0x63);
    const user = await shopperWith('Owen Owner', '40.00');
    expect((await (await kit.as(user)).post('/api/users/cashout').send({ wallet })).status).toBe(200);
    const first = await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id } });
    const [mail] = await mailsTo(user.email, 1, /new wallet/i);
    const token = cancelToken(mail!)!;

    // A day later: the worker's sweep releases it, and the operator is asked to pay it.
    await kit.db.cashoutRequest.update({ where: { id: first.id }, data: { holdUntil: new Date(Date.now() - 1000) } });
    await sweepOnce();
    await waitFor('the cashout released and the operator told', async () => (await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: first.id } })).status === 'NOTIFIED');
    const [notice] = await mailsTo(OPERATOR, 1, /Cashout request from Owen Owner/);
    expect(notice!.text).toContain(wallet);
    const wei = (c: { amountUsd: { toFixed(n: number): string }; ethUsd: { toFixed(n: number): string } | null }) => usdCentsToWei(toCents(c.amountUsd.toFixed(2)), priceToAnswer(c.ethUsd!.toFixed(8)));
    const paidHash = await kit.chain.sendAndWait(treasury, wallet, wei(first));
    expect((await kit.markPayoutPaid(admin, 'cashouts', first.id, paidHash)).status).toBe(202);
    expect((await kit.payoutVerdict('cashout', first.id)).status).toBe('ACCEPTED');

    // The wallet has been paid once: the next cashout to it is not held, and the account is told of it all the same.
    await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '25.00', kind: 'DAILY_CREDIT', idempotencyKey: `seed2:${user.id}` }]);
    expect((await (await kit.as(user)).post('/api/users/cashout').send({ wallet: wallet.toLowerCase() })).status).toBe(200);
    const second = await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id, id: { not: first.id } } });
    expect(second.status).not.toBe('HELD');
    expect(second.holdUntil).toBeNull();
    const [told] = await mailsTo(user.email, 1, /^Cashout of \$25\.00 requested$/);
    expect(told!.text).toContain(wallet.toLowerCase());
    expect(cancelToken(told!)).toBeUndefined();

    // The admin sends it and names the hash; the owner's old link, opened now, cancels nothing that is being paid.
    const hash = await kit.chain.sendAndWait(treasury, wallet, wei(second));
    expect((await kit.markPayoutPaid(admin, 'cashouts', second.id, hash)).status).toBe(202);
    const opened = await cancel(token);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ cancelled: 0, returnedUsd: 0 });
    expect((await kit.payoutVerdict('cashout', second.id)).status).toBe('ACCEPTED');
    expect((await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: second.id } })).status).toBe('PAID');
    expect(await balanceOf(user.id)).toBe('0.00');
    // The wallet is blocked from now on all the same.
    expect((await (await kit.as(user)).post('/api/users/cashout').send({ wallet })).status).toBe(400);
  });

  it('once the wait is over and it is with the admins, the link cancels nothing: ETH sent before the hash is named is never also given back', async () => {
    const wallet = walletOf(0x65);
    const user = await shopperWith('Fay Farmer', '40.00');
    expect((await (await kit.as(user)).post('/api/users/cashout').send({ wallet })).status).toBe(200);
    const cashout = await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id } });
    const [mail] = await mailsTo(user.email, 1, /new wallet/i);
    await kit.db.cashoutRequest.update({ where: { id: cashout.id }, data: { holdUntil: new Date(Date.now() - 1000) } });
    await sweepOnce();
    await waitFor('the cashout released', async () => (await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).status === 'NOTIFIED');
    // The admin broadcasts the ETH first; the link is opened before the hash is named.
    const released = await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } });
    const hash = await kit.chain.sendAndWait(treasury, wallet, usdCentsToWei(toCents(released.amountUsd.toFixed(2)), priceToAnswer(released.ethUsd!.toFixed(8))));
    const opened = await cancel(cancelToken(mail!)!);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ cancelled: 0, returnedUsd: 0, stillPaying: 1 });
    expect(opened.body.message).toBe(
      `A cashout to this wallet was already with the admins to pay and could not be stopped: tell us at once. The wallet ${wallet.toLowerCase()} is blocked for your account, and every session of your account was signed out: sign in and change your password.`,
    );
    expect(await balanceOf(user.id)).toBe('0.00');
    expect((await kit.markPayoutPaid(admin, 'cashouts', cashout.id, hash)).status).toBe(202);
    expect((await kit.payoutVerdict('cashout', cashout.id)).status).toBe('ACCEPTED');
    expect(await balanceOf(user.id)).toBe('0.00');
  });

  it('is priced again when its wait is over, at the higher ETH price of the two: waiting (or cancelling) is no bet on the price', async () => {
    const rpc = kit.env.anvil!.rpcUrl;
    try {
      const [up, down] = [await shopperWith('Uma Up', '30.00'), await shopperWith('Dan Down', '30.00')];
      expect((await (await kit.as(up)).post('/api/users/cashout').send({ wallet: walletOf(0x66) })).status).toBe(200);
      expect((await (await kit.as(down)).post('/api/users/cashout').send({ wallet: walletOf(0x67) })).status).toBe(200);
      const [rise, fall] = [await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: up.id } }), await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: down.id } })];
      expect([rise.ethUsd?.toFixed(2), fall.ethUsd?.toFixed(2)]).toEqual(['3000.00', '3000.00']);
      // ETH rose during the wait: released at today's price (fewer ETH for the same dollars).
      await setEthUsdPrice(rpc, '4000');
      await kit.db.cashoutRequest.update({ where: { id: rise.id }, data: { holdUntil: new Date(Date.now() - 1000) } });
      await sweepOnce();
      const risen = await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: rise.id } });
      expect([risen.status === 'HELD', risen.ethUsd?.toFixed(2)]).toEqual([false, '4000.00']);
      // ETH fell: released at the price it was asked at.
      await setEthUsdPrice(rpc, '2000');
      await kit.db.cashoutRequest.update({ where: { id: fall.id }, data: { holdUntil: new Date(Date.now() - 1000) } });
      await sweepOnce();
      const fallen = await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: fall.id } });
      expect([fallen.status === 'HELD', fallen.ethUsd?.toFixed(2)]).toEqual([false, '3000.00']);
    } finally {
      await setEthUsdPrice(rpc, '3000');
    }
  });

  it('the link and the end of the wait at the same moment: one wins; cancelled, the balance comes back once and nothing is paid, released, it is not returned', async () => {
    const wallet = walletOf(0x64);
    const user = await shopperWith('Rae Race', '55.00');
    expect((await (await kit.as(user)).post('/api/users/cashout').send({ wallet })).status).toBe(200);
    const cashout = await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id } });
    const [mail] = await mailsTo(user.email, 1, /new wallet/i);
    await kit.db.cashoutRequest.update({ where: { id: cashout.id }, data: { holdUntil: new Date(Date.now() - 1000) } });
    const [clicked] = await Promise.all([cancel(cancelToken(mail!)!), runSweep()]);
    const status = (await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).status;
    if (clicked.body.cancelled === 1) {
      expect(clicked.body).toMatchObject({ returnedUsd: 55, stillPaying: 0 });
      expect(status).toBe('CANCELLED');
      expect(await balanceOf(user.id)).toBe('55.00');
      expect((await kit.markPayoutPaid(admin, 'cashouts', cashout.id, `0x${'ef'.repeat(32)}`)).status).toBe(409);
    } else {
      expect(clicked.body).toMatchObject({ cancelled: 0, returnedUsd: 0, stillPaying: 1 });
      expect(['REQUESTED', 'NOTIFIED']).toContain(status);
      expect(await balanceOf(user.id)).toBe('0.00');
    }
    const entries = await kit.db.ledgerEntry.findMany({ where: { cashoutId: cashout.id } });
    expect(entries).toHaveLength(clicked.body.cancelled === 1 ? 2 : 1);
  });
});
