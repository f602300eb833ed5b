import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ParsedMail } from 'mailparser';
import { generate } from 'otplib';
import { startShop, type Shop } from './shop.ts';
import { ApiClient, eventually, registerThroughApi, registerThroughUi, setActiveBalance, toast, unique } from './journey-helpers.ts';

const PHONE = { width: 390, height: 844 };

let shop: Shop;
beforeAll(async () => {
  // A first cashout to a wallet waits a day, as in production.
  shop = await startShop({ env: { NEW_WALLET_HOLD_HOURS: '24' } });
});
afterAll(async () => {
  await shop?.close();
});

/** The amount shown under a balance label on /profile or /profile/cashout. */
const amountUnder = (page: Page, label: 'Active Balance' | 'Passive Balance') =>
  page.getByText(label, { exact: true }).locator('xpath=following-sibling::span[1]/span[1]');

const recipients = (m: ParsedMail) => (Array.isArray(m.to) ? m.to : [m.to]).flatMap((t) => t?.value.map((v) => v.address) ?? []);
/** The e-mail to `address` whose subject matches. */
const mailTo = (address: string, subject: RegExp) =>
  eventually(`an e-mail to ${address} about ${subject}`, () => shop.smtp.messages.find((m) => recipients(m).includes(address) && subject.test(m.subject ?? '')));

async function newUser(page: Page, name: string) {
  const user = { name, email: `${unique(name.split(' ')[0]!.toLowerCase())}@example.com`, password: 'user-pass-123' };
  await registerThroughUi(page, user, '/profile');
  const stored = await shop.db.user.findUniqueOrThrow({ where: { email: user.email } });
  return { ...user, id: stored.id };
}

describe('cashout', () => {
  it("refuses a balance of exactly 20, then confirms 45.50 to a new wallet: 'Cashout Success', balance 0, the owner e-mailed at once, the operator once its day is over", async () => {
    const page = await shop.newPage();
    const user = await newUser(page, 'Carla Cashout');
    await setActiveBalance(shop, user.id, '20');

    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
    await expect.poll(() => amountUnder(page, 'Active Balance').innerText()).toBe('20.00');
    await page.getByRole('link', { name: 'Cashout', exact: true }).click();
    await page.waitForURL('**/profile/cashout');
    await page.getByRole('heading', { name: 'Cashout', exact: true }).waitFor();

    // The warnings and the minimum.
    await page.getByText('The wallet address must be on the ETH mainnet').waitFor();
    await page.getByText('Coins are sent to your wallet within 1-24 hours.').waitFor();
    await page.getByText('minimum cashout of 20 AZN').waitFor();
    await expect.poll(() => amountUnder(page, 'Active Balance').innerText()).toBe('20.00');
    // 20 / 3000 = 0.0066666...: cut at 6 decimals, as every ETH amount is.
    const button20 = page.getByRole('button', { name: 'Cashout (0.006666)' });
    await button20.waitFor();

    const wallet = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'; // any wallet but the shop's own receiving address
    await page.getByLabel('Wallet Address').fill(wallet);
    await button20.click();
    await page.getByRole('alert').filter({ hasText: 'Not Enough Money' }).waitFor();
    await toast(page, 'Not Enough Money').waitFor();
    expect(page.url()).toMatch(/\/profile\/cashout$/);
    await shop.screenshot(page, '60-cashout-not-enough');
    expect((await shop.db.user.findUniqueOrThrow({ where: { id: user.id } })).activeBalance.toFixed(2)).toBe('20.00');
    expect(await shop.db.cashoutRequest.count({ where: { userId: user.id } })).toBe(0);

    // Above the minimum.
    await setActiveBalance(shop, user.id, '45.50');
    await page.reload();
    await expect.poll(() => amountUnder(page, 'Active Balance').innerText()).toBe('45.50');
    // 45.50 / 3000 = 0.0151666...: cut at 6 decimals -> '0.015166'.
    const button = page.getByRole('button', { name: 'Cashout (0.015166)' });
    await button.waitFor();
    await page.getByLabel('Wallet Address').fill(wallet);
    await shop.screenshot(page, '61-cashout-ready');
    await button.click();
    // What will happen, before anything is sent: the amount, the wallet, and the day a new wallet waits.
    const confirm = page.getByRole('alertdialog', { name: 'Confirm your cashout' });
    await confirm.getByText('45.50 USD (about 0.015166 ETH)').waitFor();
    await confirm.getByText(wallet).waitFor();
    await confirm.getByText(/^We e-mail you about it at once, with a link to cancel it, and it waits until \d{4}-\d\d-\d\d \d\d:\d\d UTC before it is paid\.$/).waitFor();
    await shop.screenshot(page, '61a-cashout-confirm');
    expect(await shop.db.cashoutRequest.count({ where: { userId: user.id } })).toBe(0);
    await confirm.getByRole('button', { name: 'Confirm cashout' }).click();
    await toast(page, 'Cashout Success').waitFor();
    await page.waitForURL((url) => url.pathname === '/profile');
    await expect.poll(() => amountUnder(page, 'Active Balance').innerText()).toBe('0.00');
    await page.getByRole('list', { name: 'Cashouts waiting to be paid' }).getByText('A wallet new to your account: it waits until', { exact: false }).waitFor();
    await shop.screenshot(page, '62-profile-after-cashout');

    const stored = await shop.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.activeBalance.toFixed(2)).toBe('0.00');
    const request = await shop.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id } });
    expect({ wallet: request.wallet.toLowerCase(), amount: request.amountUsd.toFixed(2), status: request.status }).toEqual({ wallet: wallet.toLowerCase(), amount: '45.50', status: 'HELD' });
    // The owner hears of it at once.
    const told = await mailTo(user.email, /^Cashout of \$45\.50 to a new wallet$/);
    expect(told.text).toContain(wallet);

    // A day later the worker hands it to the admins, and the operator's notice reaches the SMTP server.
    expect(shop.smtp.messages.filter((m) => recipients(m).includes('ops@example.com') && (m.text ?? '').includes(wallet))).toHaveLength(0);
    await shop.db.cashoutRequest.update({ where: { id: request.id }, data: { holdUntil: new Date(Date.now() - 1000) } });
    const mail = await eventually('the cashout e-mail', () =>
      shop.smtp.messages.find((m) => recipients(m).includes('ops@example.com') && (m.text ?? '').toLowerCase().includes(wallet.toLowerCase())),
    );
    const text = mail.text ?? '';
    expect(text).toContain(`${user.name} (${user.email}) asked for a cashout of $45.50`);
    expect(recipients(mail)).toEqual(['ops@example.com']);
    await expect.poll(async () => (await shop.db.cashoutRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe('NOTIFIED');
  });

  it('with an authenticator app on, on a phone: the confirmation, then a second factor although she signed in with one; the e-mail\'s link cancels it and her balance is back', async () => {
    const user = { name: 'Tess Twofactor', email: `${unique('tess')}@example.com`, password: 'tess-password-1' };
    const { id, client } = await registerThroughApi(shop, user);
    const started = await client.request<{ secret: string }>('POST', '/api/users/2fa/totp', { password: user.password });
    const { secret } = started.body;
    const confirmed = await client.request<{ recoveryCodes: string[] }>('POST', '/api/users/2fa/totp/confirm', { code: await generate({ secret }) });
    expect(confirmed.status).toBe(200);
    await setActiveBalance(shop, id, '650');

    // Signed in with the password and a code (the next 30-second step: enrolment used this one).
    const page = await shop.newPage({ viewport: PHONE });
    await page.goto('/login?redirect=%2Fprofile%2Fcashout');
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByLabel('Authentication code').fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/cashout');

    const wallet = '0x6161616161616161616161616161616161616161';
    await page.getByLabel('Wallet Address').fill(wallet);
    await page.getByRole('button', { name: 'Cashout (0.216666)' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm your cashout' });
    await confirm.getByText('650.00 USD (about 0.216666 ETH)').waitFor();
    await confirm.getByText('A wallet new to your account').waitFor();
    await shop.screenshot(page, '65-cashout-confirm-phone');
    await confirm.getByRole('button', { name: 'Confirm cashout' }).click();
    // The code she signed in with does not send money out: the step-up asks for one now.
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUp.waitFor();
    await shop.screenshot(page, '66-cashout-step-up-phone');
    expect(await shop.db.cashoutRequest.count({ where: { userId: id } })).toBe(0);
    await stepUp.getByLabel('Authentication code').fill(confirmed.body.recoveryCodes[0]!);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Cashout Success').waitFor();
    await page.waitForURL((url) => url.pathname === '/profile');
    const cashout = await shop.db.cashoutRequest.findFirstOrThrow({ where: { userId: id } });
    expect(cashout.status).toBe('HELD');

    // "This was not me": the link in her e-mail asks first, then cancels it and signs her out everywhere.
    const told = await mailTo(user.email, /^Cashout of \$650\.00 to a new wallet$/);
    const link = new URL(/https?:\/\/\S+\/cashout\/cancel\?token=\S+/.exec(told.text ?? '')![0]);
    await page.goto(link.pathname + link.search);
    await page.getByRole('heading', { name: 'Cancel a cashout to a new wallet' }).waitFor();
    await shop.screenshot(page, '67-cashout-cancel-link-phone');
    expect((await shop.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).status).toBe('HELD');
    await page.getByRole('button', { name: 'Cancel cashout and block wallet' }).click();
    await page.getByRole('status').getByText('Cancelled: $650.00 is back in your active balance.', { exact: false }).waitFor();
    await shop.screenshot(page, '68-cashout-cancelled-phone');
    expect((await shop.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).status).toBe('CANCELLED');
    expect((await shop.db.user.findUniqueOrThrow({ where: { id } })).activeBalance.toFixed(2)).toBe('650.00');
    expect((await new ApiClient(shop.baseUrl).request('POST', '/api/users/cashout/cancel', { token: link.searchParams.get('token') })).body).toMatchObject({ cancelled: 1, returnedUsd: 650 });
  });
});

describe('exchange', () => {
  it("says what the passive balance is for, moves the amount chosen after saying exactly what moves: 'Balance exchanged!'; a confirmation gone stale moves nothing", async () => {
    const page = await shop.newPage();
    const user = await newUser(page, 'Ezra Exchange');
    await setActiveBalance(shop, user.id, '12.34');

    await page.goto('/profile');
    await expect.poll(() => amountUnder(page, 'Active Balance').innerText()).toBe('12.34');
    expect(await amountUnder(page, 'Passive Balance').innerText()).toBe('0.00');
    await page.getByText('Your passive balance stays in your account: it cannot be cashed out to a wallet', { exact: false }).waitFor();
    const field = page.getByLabel('Amount to exchange (USD)');
    expect(await field.inputValue()).toBe('12.34');
    await shop.screenshot(page, '63-profile-before-exchange');

    // Part of it: the question says exactly what moves and what each balance will be.
    await field.fill('10');
    await page.getByRole('button', { name: 'Exchange to Passive Balance' }).click();
    const question = page.getByRole('alertdialog', { name: 'Exchange to Passive Balance?' });
    await question
      .getByText('10.00 USD of your active balance moves to your passive balance. Your active balance will be 2.34 USD and your passive balance 10.00 USD.', { exact: false })
      .waitFor();
    await shop.screenshot(page, '63a-exchange-confirm');
    await question.getByRole('button', { name: 'Exchange 10.00 USD' }).click();
    await toast(page, 'Balance exchanged!').waitFor();
    await expect.poll(() => amountUnder(page, 'Passive Balance').innerText()).toBe('10.00');
    expect(await amountUnder(page, 'Active Balance').innerText()).toBe('2.34');
    await shop.screenshot(page, '64-profile-after-exchange');
    const stored = await shop.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect({ active: stored.activeBalance.toFixed(2), passive: stored.passiveBalance.toFixed(2) }).toEqual({ active: '2.34', passive: '10.00' });

    // On a phone: the rest, asked for; meanwhile the balance falls (a cashout in another tab). Nothing moves, it says why, and shows the balance.
    await page.setViewportSize(PHONE);
    expect(await field.inputValue()).toBe('2.34');
    await page.getByRole('button', { name: 'Exchange to Passive Balance' }).click();
    await question.getByText('2.34 USD of your active balance moves to your passive balance.', { exact: false }).waitFor();
    await shop.screenshot(page, '64a-exchange-confirm-phone');
    await setActiveBalance(shop, user.id, '1.00');
    await question.getByRole('button', { name: 'Exchange 2.34 USD' }).click();
    await toast(page, 'Your active balance is 1.00 now, less than the 2.34 you asked to exchange: nothing was moved.').waitFor();
    await expect.poll(() => amountUnder(page, 'Active Balance').innerText()).toBe('1.00');
    expect(await amountUnder(page, 'Passive Balance').innerText()).toBe('10.00');
    await shop.screenshot(page, '64b-exchange-stale-phone');
    const after = await shop.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect({ active: after.activeBalance.toFixed(2), passive: after.passiveBalance.toFixed(2) }).toEqual({ active: '1.00', passive: '10.00' });
    expect(await shop.db.ledgerEntry.count({ where: { userId: user.id, kind: 'EXCHANGE' } })).toBe(2);

    // Survives a reload: the page shows what the server holds.
    await page.reload();
    await expect.poll(() => amountUnder(page, 'Passive Balance').innerText()).toBe('10.00');
    expect(await amountUnder(page, 'Active Balance').innerText()).toBe('1.00');
  });
});
