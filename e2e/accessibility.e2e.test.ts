import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrderViaApi, registerViaApi, signIn } from './helpers.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';
import { setActiveBalance } from './journey-helpers.ts';

/**
 * Accessibility (issue 13): a buyer goes from the home page to a paid order with the
 * keyboard alone, and every screen of the app, as a visitor, a buyer and an admin, is
 * checked by axe-core in the page (shop.screenshot fails the file at close on any
 * serious or critical violation).
 */
let shop: Shop;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  await shop?.close();
});

const BUYER_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement).catch(() => false);

/**
 * Presses Tab until `target` has the focus, as a keyboard user moves through the page,
 * and checks the focused element shows it (an outline or a ring).
 */
async function tabTo(page: Page, target: Locator, maxPresses = 60): Promise<void> {
  await target.waitFor();
  for (let i = 0; i < maxPresses; i++) {
    if (await isFocused(target)) {
      const visible = await target.evaluate((el) => {
        const style = getComputedStyle(el);
        return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || (style.boxShadow !== 'none' && style.boxShadow !== '');
      });
      expect(visible, `focus is not visible on ${await target.evaluate((el) => el.outerHTML.slice(0, 120))}`).toBe(true);
      return;
    }
    await page.keyboard.press('Tab');
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 160));
  throw new Error(`${maxPresses} presses of Tab never reached ${target.toString()} (the focus is on ${focused})`);
}

describe('with the keyboard alone', () => {
  it('a buyer goes from the home page to a placed order and pays it', async () => {
    await registerViaApi(shop, { email: 'keys@example.com', password: 'keyboard1', name: 'Kay Board' });
    const page = await shop.newPage({ wallet: { account: BUYER_WALLET } });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Available Packages :' }).waitFor();

    await tabTo(page, page.getByRole('link', { name: 'Starter Package' }).first());
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/product\//);
    await tabTo(page, page.getByRole('button', { name: 'Add to Cart' }));
    await shop.screenshot(page, '80-keyboard-product');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/cart');
    await tabTo(page, page.getByRole('button', { name: 'Submit Order' }));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/login');

    await tabTo(page, page.getByLabel('Email Address'));
    await page.keyboard.type('keys@example.com');
    await page.keyboard.press('Tab');
    expect(await isFocused(page.getByLabel('Password'))).toBe(true);
    await page.keyboard.type('keyboard1');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/placeorder');

    await tabTo(page, page.getByRole('button', { name: 'Place Order' }));
    await shop.screenshot(page, '81-keyboard-placeorder');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/order\/[0-9a-f-]{36}$/);

    await tabTo(page, page.getByRole('button', { name: 'Connect to MetaMask' }));
    await page.keyboard.press('Enter');
    await page.getByText(`Connected: ${BUYER_WALLET}`, { exact: false }).waitFor();
    const pay = page.getByRole('button', { name: /^Pay 25\.00 USD \(0\.0083\d+ ETH\)$/ });
    await tabTo(page, pay);
    await shop.screenshot(page, '82-keyboard-pay');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/purchased\?tx=0x[0-9a-f]{64}$/, { timeout: 30_000 });
    await page.getByText('Success Pay').waitFor();
    await shop.screenshot(page, '83-keyboard-paid');
  });
});

describe('every screen passes axe', () => {
  it('as a visitor: home (phone and desktop), a package, the cart, sign-in, registration, a page that does not exist', async () => {
    const phone = await shop.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto('/');
    await phone.getByRole('heading', { name: 'Available Packages :' }).waitFor();
    await shop.screenshot(phone, '84-a11y-home-phone');

    const page = await shop.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Available Packages :' }).waitFor();
    await page.getByRole('link', { name: 'Sampler Package' }).first().click();
    await page.getByText('Out of Stock').first().waitFor();
    await shop.screenshot(page, '85-a11y-product-sold-out');
    await page.goto('/cart');
    await page.getByText('Your basket is Empty').waitFor();
    await shop.screenshot(page, '86-a11y-cart-empty');
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Daxil Olun' }).waitFor();
    // A failed sign-in shows its error in the form.
    await page.getByLabel('Email Address').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Invalid email or password').first().waitFor();
    await shop.screenshot(page, '87-a11y-login-error');
    await page.goto('/register');
    await page.getByRole('heading', { name: 'Registration:' }).waitFor();
    await shop.screenshot(page, '88-a11y-register');
    await page.goto('/no-such-page');
    await page.getByText('Page not found').first().waitFor();
    await shop.screenshot(page, '89-a11y-not-found');
  });

  it('as a buyer: profile with unpaid and paid orders, cashout, a pay page with a wallet connected and the claim form open', async () => {
    await registerViaApi(shop, { email: 'a11y.buyer@example.com', password: 'secret123', name: 'Ally Buyer' });
    const page = await shop.newPage({ wallet: { account: BUYER_WALLET } });
    await signIn(page, 'a11y.buyer@example.com', 'secret123');
    const orderId = await placeOrderViaApi(page, 'Silver Package');
    await page.goto(`/order/${orderId}`);
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText('Connected:', { exact: false }).first().waitFor();
    await page.getByText('Sent an amount that was rounded? Claim your transfer').click();
    await shop.screenshot(page, '90-a11y-pay-connected');
    await page.goto('/profile');
    await page.getByRole('link', { name: /pay/i }).first().waitFor();
    await shop.screenshot(page, '91-a11y-profile');
    await page.goto('/profile/cashout');
    await page.getByRole('heading').first().waitFor();
    await shop.screenshot(page, '92-a11y-cashout');
    // The confirmation a cashout asks for, and the page of the new-wallet e-mail's link.
    const buyer = await shop.db.user.findUniqueOrThrow({ where: { email: 'a11y.buyer@example.com' } });
    await setActiveBalance(shop, buyer.id, '30');
    await page.reload();
    await page.getByLabel('Wallet Address').fill('0x6262626262626262626262626262626262626262');
    await page.getByRole('button', { name: /^Cashout \(/ }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm your cashout' });
    await confirm.waitFor();
    await shop.screenshot(page, '92a-a11y-cashout-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.goto('/cashout/cancel?token=a11y-token-that-is-not-real-0000');
    await page.getByRole('heading', { name: 'Cancel a cashout to a new wallet' }).waitFor();
    await shop.screenshot(page, '92b-a11y-cashout-cancel-link');
  });

  it('as an admin: every admin screen', async () => {
    const page = await shop.newPage();
    await signIn(page, ADMIN.email, ADMIN.password);
    const screens: [string, string][] = [
      ['/admin/orderlist', '93-a11y-admin-orders'],
      ['/admin/productlist', '94-a11y-admin-products'],
      ['/admin/userlist', '95-a11y-admin-users'],
      ['/admin/cashouts', '96-a11y-admin-cashouts'],
      ['/admin/payments', '97-a11y-admin-payments'],
      ['/admin/reconciliation', '98-a11y-admin-reconciliation'],
      ['/admin/webhooks', '98-a11y-admin-webhooks'],
    ];
    for (const [pathname, name] of screens) {
      await page.goto(pathname);
      await page.locator('main table, main [role="status"], main [role="alert"], main h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      await shop.screenshot(page, name);
    }
    const product = await shop.db.product.findFirstOrThrow({ where: { name: 'Gold Package' } });
    await page.goto(`/admin/products/${product.id}/edit`);
    await page.getByLabel('Name').waitFor();
    await shop.screenshot(page, '99-a11y-admin-product-edit');
    const user = await shop.db.user.findFirstOrThrow({ where: { email: 'a11y.buyer@example.com' } });
    await page.goto(`/admin/user/${user.id}/edit`);
    await page.getByLabel('Name').waitFor();
    await shop.screenshot(page, '99b-a11y-admin-user-edit');
  });
});
