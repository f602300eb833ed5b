import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANVIL_ACCOUNTS } from '../scripts/testing/chain.ts';
import { registerViaApi } from './helpers.ts';
import { eventually, signInThroughUi, toast, unique } from './journey-helpers.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';

/**
 * Where a new shopper and a new admin stumbled (issue 40, its major findings), at 390 px
 * and 1280 px: a friend's referral link still counts when the invited visitor looks
 * around before registering (the register page names the friend, and the friend is
 * rewarded once the buyer pays); an admin sets a package's term and sees what it pays in all.
 */
const WIDTHS = [390, 1280] as const;
const BUYER_WALLETS = { 390: ANVIL_ACCOUNTS[6], 1280: ANVIL_ACCOUNTS[7] } as const;
/** How long a poll waits for the page to settle on a busy machine. */
const SETTLE = { timeout: 20_000 };

let shop: Shop;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  await shop?.close();
});

/** How much wider than the screen the page is (0 when it fits). */
const overflow = (page: Page) => page.evaluate(() => Math.max(0, document.scrollingElement!.scrollWidth - window.innerWidth));

describe.each(WIDTHS)('at %i px', (width) => {
  it("a friend's referral link counts after the visitor looks around: the code is filled in, the friend named, and rewarded once the buyer pays", async () => {
    const friend = { name: `Rosa Referrer ${width}`, email: `${unique('rosa')}@example.com`, password: 'referrer-pass-1' };
    const { referralCode } = await registerViaApi(shop, friend);
    const buyer = { name: `Nina Newcomer ${width}`, email: `${unique('nina')}@example.com`, password: 'newcomer-pass-1' };
    const page = await shop.newPage({ viewport: { width, height: 900 }, wallet: { account: BUYER_WALLETS[width] } });

    // The friend's link, then the logo: the visitor looks around first.
    await page.goto(`/register?ref=${referralCode}`);
    await page.getByRole('heading', { name: 'Registration:' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'ETH Shop' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Starter Package' }).first().click();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.waitForURL('**/cart');
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await page.getByRole('heading', { name: 'Daxil Olun' }).waitFor();
    await page.getByRole('link', { name: 'Register' }).click();

    // Registration started from the sign-in page: the friend's code is there, and whose it is.
    await page.getByRole('heading', { name: 'Registration:' }).waitFor();
    expect(new URL(page.url()).searchParams.has('ref')).toBe(false);
    const codeField = page.getByLabel('Referral Code');
    await expect.poll(() => codeField.inputValue(), SETTLE).toBe(referralCode);
    await page.getByText(`You were invited by ${friend.name}`).waitFor();
    expect(await overflow(page)).toBe(0);
    await shop.screenshot(page, `newcomers-register-invited-${width}`);

    await page.getByLabel('Email Address').fill(buyer.email);
    await page.getByLabel('Password').fill(buyer.password);
    await page.getByLabel('Name').fill(buyer.name);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL((url) => url.pathname === '/placeorder');
    const [stored, referrer] = await Promise.all([
      shop.db.user.findUniqueOrThrow({ where: { email: buyer.email } }),
      shop.db.user.findUniqueOrThrow({ where: { email: friend.email } }),
    ]);
    expect(stored.referredById).toBe(referrer.id);

    // Pays for the package from the wallet.
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL(/\/order\/[0-9a-f-]{36}$/);
    const orderId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await toast(page, 'MetaMask Successfully Connected').waitFor();
    await page.getByRole('button', { name: /^Pay 25\.00 USD/ }).click();
    await page.waitForURL(/\/purchased\?tx=0x[0-9a-f]{64}$/, { timeout: 30_000 });
    await page.getByText('Success Pay').waitFor();

    // The friend's reward: 10% of 25.00, into their active balance through the ledger.
    const reward = await eventually('the referral reward', async () =>
      (await shop.db.ledgerEntry.findFirst({ where: { userId: referrer.id, kind: 'REFERRAL_REWARD', orderId } })) ?? undefined,
    );
    expect(reward.amount.toFixed(2)).toBe('2.50');
    expect((await shop.db.user.findUniqueOrThrow({ where: { id: referrer.id } })).activeBalance.toFixed(2)).toBe('2.50');
    // Used: the code is not offered to whoever registers next on this device.
    expect(await page.evaluate(() => localStorage.getItem('referral'))).toBeNull();
  });

  it("an admin sets a new package's term and sees what it pays in all, then finds the term saved", async () => {
    const page = await shop.newPage({ viewport: { width, height: 900 } });
    await signInThroughUi(page, ADMIN.email, ADMIN.password, '/admin/productlist');
    await page.getByRole('button', { name: 'Create Package' }).click();
    await toast(page, 'Product created!').waitFor();
    await page.waitForURL(/\/admin\/products\/[0-9a-f-]{36}\/edit$/);
    const productId = /\/admin\/products\/([0-9a-f-]{36})\/edit$/.exec(page.url())![1]!;
    const form = page.getByRole('form', { name: 'Edit Product' });
    const term = form.getByLabel('Term (days)');
    expect(await term.inputValue()).toBe('30');

    const name = unique('Term Package');
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Price').fill('80');
    await form.getByLabel('Daily Bonus').fill('1.50');
    await term.fill('45');
    const pays = form.getByTestId('package-pays');
    await expect.poll(() => pays.innerText(), SETTLE).toBe('USD $1.50 a day for 45 days: USD $67.50 in all');
    expect(await overflow(page)).toBe(0);
    await shop.screenshot(page, `newcomers-package-term-${width}`);

    await form.getByRole('button', { name: 'Update' }).click();
    await toast(page, 'Product updated').waitFor();
    await page.waitForURL('**/admin/productlist');
    expect((await shop.db.product.findUniqueOrThrow({ where: { id: productId } })).durationDays).toBe(45);
    await page.goto(`/admin/products/${productId}/edit`);
    await expect.poll(() => page.getByLabel('Term (days)').inputValue(), SETTLE).toBe('45');
    await page.getByText('USD $1.50 a day for 45 days: USD $67.50 in all').waitFor();
  });
});

describe('an admin lengthening the term of a package on sale that pays more than it costs', () => {
  it('saves it as a request for a second admin: the term stays until approved', async () => {
    const silver = await shop.db.product.findFirstOrThrow({ where: { name: 'Silver Package' } });
    const page = await shop.newPage();
    await signInThroughUi(page, ADMIN.email, ADMIN.password, `/admin/products/${silver.id}/edit`);
    const form = page.getByRole('form', { name: 'Edit Product' });
    const term = form.getByLabel('Term (days)');
    await expect.poll(() => term.inputValue(), SETTLE).toBe(String(silver.durationDays));
    await term.fill(String(silver.durationDays + 30));
    await form.getByTestId('second-admin-note').getByText('At these numbers it pays', { exact: false }).waitFor();
    await form.getByRole('button', { name: 'Update' }).click();
    await toast(page, 'Saved. The changes to the price, daily bonus, term or stock wait for a second admin.').waitFor();
    expect((await shop.db.product.findUniqueOrThrow({ where: { id: silver.id } })).durationDays).toBe(silver.durationDays);
    const asked = await shop.db.approval.findFirstOrThrow({ where: { subjectId: silver.id, status: 'PENDING' } });
    expect((asked.change as { durationDays: number }).durationDays).toBe(silver.durationDays + 30);
  });
});
