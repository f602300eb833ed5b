import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startShop, type Shop } from './shop.ts';
import { eventually, registerThroughUi, setActiveBalance, toast, unique } from './journey-helpers.ts';

let shop: Shop;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  await shop?.close();
});

/** The amount shown under a balance label on /profile or /profile/cashout. */
const amountUnder = (page: Page, label: 'Active Balance' | 'Passive Balance') =>
  page.getByText(label, { exact: true }).locator('xpath=following-sibling::span[1]/span[1]');

async function newUser(page: Page, name: string) {
  const user = { name, email: `${unique(name.split(' ')[0]!.toLowerCase())}@example.com`, password: 'user-pass-123' };
  await registerThroughUi(page, user, '/profile');
  const stored = await shop.db.user.findUniqueOrThrow({ where: { email: user.email } });
  return { ...user, id: stored.id };
}

describe('cashout', () => {
  it("refuses a balance of exactly 20, then pays out 45.50: 'Cashout Success', balance 0, and the operator is e-mailed", async () => {
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
    // 20 / 3000 = 0.0066666... -> 6 decimals.
    const button20 = page.getByRole('button', { name: 'Cashout (0.006667)' });
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
    // 45.50 / 3000 = 0.0151666... -> '0.015167'.
    const button = page.getByRole('button', { name: 'Cashout (0.015167)' });
    await button.waitFor();
    await page.getByLabel('Wallet Address').fill(wallet);
    await shop.screenshot(page, '61-cashout-ready');
    await button.click();
    await toast(page, 'Cashout Success').waitFor();
    await page.waitForURL((url) => url.pathname === '/profile');
    await expect.poll(() => amountUnder(page, 'Active Balance').innerText()).toBe('0.00');
    await shop.screenshot(page, '62-profile-after-cashout');

    const stored = await shop.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.activeBalance.toFixed(2)).toBe('0.00');
    const request = await shop.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id } });
    expect({ wallet: request.wallet.toLowerCase(), amount: request.amountUsd.toFixed(2) }).toEqual({ wallet: wallet.toLowerCase(), amount: '45.50' });

    // The operator's notice reaches the SMTP server.
    const mail = await eventually('the cashout e-mail', () =>
      shop.smtp.messages.find((m) => (m.text ?? '').toLowerCase().includes(wallet.toLowerCase())),
    );
    const text = mail.text ?? '';
    expect(text).toContain(`from_name: ${user.name}`);
    expect(text).toContain('$45.50');
    expect(text).toContain(user.email);
    const to = Array.isArray(mail.to) ? mail.to : [mail.to];
    expect(to.flatMap((t) => t?.value.map((v) => v.address) ?? [])).toEqual(['ops@example.com']);
    await expect.poll(async () => (await shop.db.cashoutRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe('NOTIFIED');
  });
});

describe('exchange', () => {
  it("moves the active balance to the passive balance: 'Balance exchanged!'", async () => {
    const page = await shop.newPage();
    const user = await newUser(page, 'Ezra Exchange');
    await setActiveBalance(shop, user.id, '12.34');

    await page.goto('/profile');
    await expect.poll(() => amountUnder(page, 'Active Balance').innerText()).toBe('12.34');
    expect(await amountUnder(page, 'Passive Balance').innerText()).toBe('0.00');
    await shop.screenshot(page, '63-profile-before-exchange');

    await page.getByRole('button', { name: 'Exchange to Passive Balance' }).click();
    await toast(page, 'Balance exchanged!').waitFor();
    await expect.poll(() => amountUnder(page, 'Passive Balance').innerText()).toBe('12.34');
    expect(await amountUnder(page, 'Active Balance').innerText()).toBe('0.00');
    await shop.screenshot(page, '64-profile-after-exchange');

    const stored = await shop.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect({ active: stored.activeBalance.toFixed(2), passive: stored.passiveBalance.toFixed(2) }).toEqual({ active: '0.00', passive: '12.34' });
    // Survives a reload: the page shows what the server holds.
    await page.reload();
    await expect.poll(() => amountUnder(page, 'Passive Balance').innerText()).toBe('12.34');
    expect(await amountUnder(page, 'Active Balance').innerText()).toBe('0.00');
  });
});
