import type { Page } from 'playwright-core';
import type { Address } from 'viem';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, orderReference } from '@shop/core/contract';
import { ANVIL_ACCOUNTS, waitFor } from '../scripts/testing/chain.ts';
import { quotedWei, scanQr } from './helpers.ts';
import { ApiClient, registerThroughApi, signInThroughUi, toast, unique } from './journey-helpers.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';

/**
 * Where a new shopper and a new admin stumbled (issue 40, its first minor findings), at
 * 390 px and 1280 px: My Packages gives each package its own end date; 'Assign' on
 * Payments takes the order reference and offers the buyer's open orders; Reconciliation
 * fits a phone (the audit head's hash wraps); the Order List filters by date and finds a
 * reference typed without ORD-; signing in with the code that turned the authenticator on
 * says it was used and to wait for the next one.
 */
const WIDTHS = [390, 1280] as const;
const FINNEY = 10n ** 15n;
/** How long a poll waits for the page to settle on a busy machine. */
const SETTLE = { timeout: 20_000 };

let shop: Shop;
let pia: { email: string; password: string; orderId: string };
let una: { email: string; orders: string[] };
/** The unresolved transfers waiting for an admin: one for each width. */
const transfers: string[] = [];
let dora: { orderId: string; day: string };

async function register(name: string) {
  const user = { name, email: `${unique(name.split(' ')[0]!.toLowerCase())}@example.com`, password: `${unique('pass')}-123` };
  const { id, client } = await registerThroughApi(shop, user);
  return { ...user, id, client };
}

async function place(client: ApiClient, lines: { name: string; qty: number }[]): Promise<string> {
  const products = await shop.db.product.findMany({ where: { name: { in: lines.map((l) => l.name) } } });
  const orderedItems = lines.map((l) => ({ _id: products.find((p) => p.name === l.name)!.id, qty: l.qty }));
  const total = lines.reduce((sum, l) => sum + Number(products.find((p) => p.name === l.name)!.price) * l.qty, 0).toFixed(2);
  const res = await client.request<{ _id: string }>('POST', '/api/orders', { orderedItems, itemsPrice: total, totalPrice: total });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body._id;
}

beforeAll(async () => {
  shop = await startShop();
  const receiving = shop.env.config.receivingAddress as Address;

  // Pia buys a 30-day and a 60-day package in one order and pays it.
  const piaUser = await register('Pia Packages');
  const piaOrder = await place(piaUser.client, [
    { name: 'Starter Package', qty: 1 },
    { name: 'Silver Package', qty: 1 },
  ]);
  pia = { email: piaUser.email, password: piaUser.password, orderId: piaOrder };
  await shop.chain.sendAndWait(ANVIL_ACCOUNTS[3], receiving, await quotedWei(shop, piaOrder));

  // Una leaves two orders open; two round amounts reach the shop (no tag): nobody can tell which orders they pay.
  const unaUser = await register('Una Unpaid');
  una = { email: unaUser.email, orders: [await place(unaUser.client, [{ name: 'Starter Package', qty: 1 }]), await place(unaUser.client, [{ name: 'Starter Package', qty: 1 }])] };
  for (const value of [10n * FINNEY, 11n * FINNEY]) transfers.push((await shop.chain.sendAndWait(ANVIL_ACCOUNTS[4], receiving, value)).toLowerCase());

  // Dora's order was placed 45 days ago.
  const doraUser = await register('Dora Dated');
  const doraOrder = await place(doraUser.client, [{ name: 'Starter Package', qty: 1 }]);
  const day = addDays(new Date().toISOString().slice(0, 10), -45);
  await shop.db.order.update({ where: { id: doraOrder }, data: { createdAt: new Date(`${day}T10:00:00Z`) } });
  dora = { orderId: doraOrder, day };

  await waitFor('the order to be paid', async () => (await shop.db.order.findUniqueOrThrow({ where: { id: piaOrder } })).status === 'PAID', 60_000);
  for (const txHash of transfers) await waitFor(`${txHash} to wait for an admin`, async () => (await shop.db.payment.findFirst({ where: { txHash, status: 'UNRESOLVED' } })) !== null, 60_000);
}, 180_000);
afterAll(async () => {
  await shop?.close();
});

async function signedIn(width: number, email: string, password: string, redirect = '/'): Promise<Page> {
  const page = await shop.newPage({ viewport: { width, height: 900 } });
  await signInThroughUi(page, email, password, redirect);
  return page;
}

/** How much wider than the screen the page is (0 when it fits). */
const overflow = (page: Page) => page.evaluate(() => Math.max(0, document.scrollingElement!.scrollWidth - window.innerWidth));

describe.each(WIDTHS)('at %i px', (width) => {
  it('My Packages gives each package its own end date, not the order\'s last one', async () => {
    const page = await signedIn(width, pia.email, pia.password, '/profile');
    const items = await shop.db.orderItem.findMany({ where: { orderId: pia.orderId } });
    const endOf = (name: string) => items.find((i) => i.name === name)!.creditEndsAt!.toISOString().slice(0, 10);
    expect(endOf('Starter Package')).not.toBe(endOf('Silver Package'));
    const list = page.getByRole('list', { name: 'Paid orders' });
    const line = (name: string) => list.getByRole('listitem').filter({ hasText: name });
    await expect.poll(() => line('Starter Package').innerText(), SETTLE).toContain(`Expires in ${endOf('Starter Package')} (30 days left)`);
    await expect.poll(() => line('Silver Package').innerText(), SETTLE).toContain(`Expires in ${endOf('Silver Package')} (60 days left)`);
    expect(await overflow(page)).toBe(0);
    await shop.screenshot(page, `first-look-my-packages-${width}`);
  });

  it('Admin > Payments: assigns a transfer by the order reference, or from the buyer\'s open orders it offers', async () => {
    const page = await signedIn(width, ADMIN.email, ADMIN.password, '/admin/payments');
    const txHash = transfers[WIDTHS.indexOf(width)]!;
    const row = page.getByRole('table', { name: 'Transfers that need attention' }).getByRole('row').filter({ has: page.getByTitle(txHash) });
    await row.getByRole('button', { name: 'Assign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign transfer' });
    await dialog.waitFor();
    let orderId: string;
    if (width === 390) {
      // The buyer's open orders, found by her e-mail: both of them, each with its reference and what it owes.
      await dialog.getByRole('searchbox', { name: "Buyer's e-mail or name" }).fill(una.email);
      await dialog.getByRole('button', { name: 'Find' }).click();
      const offered = dialog.getByRole('list', { name: 'Open orders' }).getByRole('listitem');
      await expect.poll(() => offered.count(), SETTLE).toBe(2);
      for (const id of una.orders) await offered.filter({ hasText: orderReference(id) }).getByText('USD $25.00 due').waitFor();
      expect(await overflow(page)).toBe(0);
      await shop.screenshot(page, `first-look-assign-offered-${width}`);
      orderId = una.orders[0]!;
      await offered.filter({ hasText: orderReference(orderId) }).getByRole('button', { name: `Assign to ${orderReference(orderId)}` }).click();
    } else {
      // The reference as the buyer quoted it.
      orderId = una.orders[1]!;
      await dialog.getByRole('textbox', { name: 'Order reference or id' }).fill(orderReference(orderId));
      expect(await overflow(page)).toBe(0);
      await shop.screenshot(page, `first-look-assign-reference-${width}`);
      await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
    }
    await toast(page, 'Payment assigned. The order is paid now.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe('PAID');
  });

  it('Admin > Reconciliation fits the screen once the books are checked (the audit head wraps)', async () => {
    const page = await signedIn(width, ADMIN.email, ADMIN.password, '/admin/reconciliation');
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(/audit head \d+:[0-9a-f]{64}/).waitFor({ timeout: 90_000 });
    expect(await overflow(page)).toBe(0);
    await shop.screenshot(page, `first-look-reconciliation-${width}`);
  });

  it('Admin > Order List: filters by the day placed, and finds a reference typed without ORD-', async () => {
    const page = await signedIn(width, ADMIN.email, ADMIN.password, '/admin/orderlist');
    await page.getByRole('heading', { name: 'Order List' }).waitFor();
    const rows = page.getByRole('row');

    const bare = orderReference(una.orders[0]!).slice(4);
    const search = page.getByRole('searchbox', { name: 'Search orders' });
    await search.fill(bare);
    await search.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === bare);
    await expect.poll(() => rows.count(), SETTLE).toBe(2);
    await rows.getByRole('link', { name: orderReference(una.orders[0]!) }).waitFor();

    await page.goto('/admin/orderlist');
    const dates = page.getByRole('form', { name: 'Placed between' });
    await dates.getByLabel('From').fill(dora.day);
    await dates.getByLabel('To').fill(dora.day);
    await dates.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL((url) => url.searchParams.get('from') === dora.day && url.searchParams.get('to') === dora.day);
    await expect.poll(() => rows.count(), SETTLE).toBe(2);
    await rows.getByRole('link', { name: orderReference(dora.orderId) }).waitFor();
    expect(await overflow(page)).toBe(0);
    await shop.screenshot(page, `first-look-orders-by-date-${width}`);
    // Cleared, every order shows again.
    await dates.getByRole('button', { name: 'Clear dates' }).click();
    await page.waitForURL((url) => !url.searchParams.has('from') && !url.searchParams.has('to'));
    await expect.poll(() => rows.count(), SETTLE).toBeGreaterThan(4);
  });

  it('signing in with the code that turned the authenticator on says it was used and to wait for the next one', async () => {
    const user = await register('Tessa Totp');
    const page = await signedIn(width, user.email, user.password, '/profile/security');
    await page.getByRole('form', { name: 'Set up an authenticator app' }).getByLabel('Your password').fill(user.password);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = new URL(await scanQr(page, 'QR code for your authenticator app')).searchParams.get('secret')!;
    const code = await generate({ secret });
    await page.getByLabel('Code from the app').fill(code);
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();

    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login?redirect=%2Fprofile');
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const codeField = page.getByLabel('Authentication code');
    await codeField.fill(code);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await toast(page, 'That code was already used. Wait for your app to show the next code').waitFor();
    expect(await page.locator('[data-sonner-toast]').filter({ hasText: 'Check the time on your device' }).count()).toBe(0);
    expect(await overflow(page)).toBe(0);
    await shop.screenshot(page, `first-look-totp-code-used-${width}`);
    // The next code signs in.
    await codeField.fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/profile');
  });
});
