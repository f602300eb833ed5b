import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Address } from 'viem';
import { requestCashout } from '@shop/core';
import { WEBHOOK_EVENT_TYPES } from '@shop/core/contract';
import { ANVIL_ACCOUNTS } from '../scripts/testing/chain.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';
import { eventually, registerThroughApi, setActiveBalance, signInThroughUi, unique } from './journey-helpers.ts';

/**
 * The admin console at phone width (issue: "lists become cards or keep their actions in
 * view; nothing is cut off at 390 px or 1280 px"), the queue dashboard reached from the
 * admin menu (nothing loaded from another host, and a way back), and the phone header:
 * the cart and its count in view without opening the menu.
 */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

const LISTS = [
  { item: 'Order List', path: '/admin/orderlist' },
  { item: 'User List', path: '/admin/userlist' },
  { item: 'Product List', path: '/admin/productlist' },
  { item: 'Cashouts', path: '/admin/cashouts' },
  { item: 'Payments', path: '/admin/payments' },
  { item: 'Approvals', path: '/admin/approvals' },
  { item: 'Reconciliation', path: '/admin/reconciliation' },
  { item: 'Webhooks', path: '/admin/webhooks' },
  { item: 'Audit log', path: '/admin/audit' },
] as const;

let shop: Shop;
let buyer: { id: string; name: string; email: string; password: string };
let cashoutId: string;

beforeAll(async () => {
  shop = await startShop();
  buyer = { id: '', name: 'Phoebe Phone', email: `${unique('phoebe')}@example.com`, password: 'phoebe-pass-123' };
  const { id, client } = await registerThroughApi(shop, buyer);
  buyer.id = id;
  const gold = await shop.db.product.findFirstOrThrow({ where: { name: 'Gold Package' } });
  const order = await client.request('POST', '/api/orders', {
    orderedItems: [{ _id: gold.id, name: gold.name, image: gold.image, price: 249.5, qty: 1 }],
    itemsPrice: '249.50',
    totalPrice: '249.50',
  });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  // A webhook endpoint that cannot be reached: the events below fill its delivery log.
  await shop.db.webhookEndpoint.create({
    data: { url: 'http://127.0.0.1:9/shop-events', description: 'fulfilment', secret: `whsec_${Buffer.from(unique('secret')).toString('base64')}`, events: [...WEBHOOK_EVENT_TYPES] },
  });
  // An open cashout request (with its 'Mark Paid' and 'Reject').
  await setActiveBalance(shop, buyer.id, '45.50');
  ({ cashoutId } = await requestCashout(shop.db, shop.env.config, { userId: buyer.id, wallet: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' }));
  // A transfer that pays no order: an unresolved payment for an admin to assign or refund.
  await shop.chain.sendAndWait(ANVIL_ACCOUNTS[3], shop.env.config.receivingAddress as Address, 12_345_678_901_234_567n);
  await eventually('the unresolved transfer', async () => (await shop.db.payment.findFirst({ where: { status: 'UNRESOLVED' } })) ?? undefined);
});
afterAll(async () => {
  await shop?.close();
});

async function signedInAdmin(viewport: { width: number; height: number }): Promise<Page> {
  const page = await shop.newPage({ viewport });
  await signInThroughUi(page, ADMIN.email, ADMIN.password);
  return page;
}

const header = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Opens the admin menu (on a phone, from the small-screen menu first) and picks an entry. */
async function fromAdminMenu(page: Page, item: string) {
  const toggle = header(page).getByRole('button', { name: 'Open menu' });
  if (await toggle.isVisible()) await toggle.click();
  await header(page).getByRole('button', { name: 'Admin menu' }).click();
  // An item with something waiting is named with it ('Cashouts 1 to pay').
  await page.getByRole('menuitem', { name: new RegExp(`^${item}( .+)?$`) }).click();
}

/** What is wider than the screen: the page itself, a table's own sideways scroll, a row's button or link off screen. */
async function overflows(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const problems: string[] = [];
    const page = document.scrollingElement!;
    if (page.scrollWidth > width) problems.push(`the page is ${page.scrollWidth}px wide`);
    for (const container of Array.from(document.querySelectorAll<HTMLElement>('[data-slot="table-container"]'))) {
      if (container.scrollWidth > container.clientWidth + 1) problems.push(`${container.querySelector('table')?.getAttribute('aria-label') ?? 'a table'} scrolls sideways (${container.scrollWidth}px)`);
    }
    for (const control of Array.from(document.querySelectorAll<HTMLElement>('main tbody tr :is(button, a, input)'))) {
      const box = control.getBoundingClientRect();
      if (box.width === 0) continue;
      if (box.left < 0 || box.right > width + 0.5) problems.push(`'${control.innerText || control.getAttribute('aria-label')}' is at ${Math.round(box.left)}..${Math.round(box.right)}px`);
    }
    return problems;
  });
}

/**
 * Where the element is not drawn in full and on top: outside the screen, or another
 * element at one of its corners (inset past the rounding) or its centre. [] when it is.
 */
async function notInView(locator: Locator): Promise<string[]> {
  await locator.waitFor();
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const problems: string[] = [];
    if (box.left < 0 || box.top < 0 || box.right > window.innerWidth || box.bottom > window.innerHeight) {
      problems.push(`at ${Math.round(box.left)},${Math.round(box.top)}..${Math.round(box.right)},${Math.round(box.bottom)} in ${window.innerWidth}x${window.innerHeight}`);
    }
    const inset = Math.min(6, box.width / 4, box.height / 4);
    const points = [
      [box.left + inset, box.top + inset],
      [box.right - inset, box.top + inset],
      [box.left + inset, box.bottom - inset],
      [box.right - inset, box.bottom - inset],
      [box.left + box.width / 2, box.top + box.height / 2],
    ] as const;
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || (hit !== element && !element.contains(hit))) problems.push(`${Math.round(x)},${Math.round(y)} shows ${hit ? `${hit.tagName.toLowerCase()}.${String(hit.className).slice(0, 60)}` : 'nothing'}`);
    }
    return problems;
  });
}

describe('an admin on a phone (390 px)', () => {
  it('reaches every admin list from the menu, and nothing is wider than the screen: rows are cards with their actions in view', async () => {
    const page = await signedInAdmin(PHONE);
    for (const list of LISTS) {
      await fromAdminMenu(page, list.item);
      await page.waitForURL((url) => url.pathname === list.path);
      await page.getByRole('heading', { name: list.item, level: 1 }).waitFor();
      await page.locator('main [role="status"]').first().waitFor({ state: 'detached' }).catch(() => {});
      if (list.item === 'Order List') await page.getByRole('row').filter({ hasText: buyer.name }).first().waitFor();
      if (list.item === 'Cashouts') await page.getByRole('row').filter({ hasText: cashoutId }).waitFor();
      if (list.item === 'Payments') await page.getByRole('table', { name: 'Transfers that need attention' }).getByRole('row').nth(1).waitFor();
      if (list.item === 'Audit log') await page.getByRole('table').getByRole('row').nth(1).waitFor();
      if (list.item === 'Webhooks') {
        await page.getByRole('button', { name: 'Delivery log' }).click();
        await page.getByRole('table', { name: 'Deliveries' }).getByRole('row').nth(1).waitFor();
      }
      expect(await overflows(page), list.item).toEqual([]);
      await shop.screenshot(page, `70-phone-${list.path.split('/').pop()}`);
    }
  });

  it("opens 'Mark Paid' on a cashout: the hash field, Save and Cancel all on screen", async () => {
    const page = await signedInAdmin(PHONE);
    await page.goto('/admin/cashouts');
    const row = page.getByRole('row').filter({ hasText: cashoutId });
    await row.getByRole('button', { name: 'Mark Paid' }).click();
    const cancel = row.getByRole('button', { name: 'Cancel' });
    await cancel.scrollIntoViewIfNeeded();
    expect(await notInView(cancel)).toEqual([]);
    expect(await notInView(row.getByRole('button', { name: 'Save' }))).toEqual([]);
    expect(await overflows(page)).toEqual([]);
    await shop.screenshot(page, '71-phone-cashout-mark-paid');
    await cancel.click();
    await row.getByRole('button', { name: 'Mark Paid' }).waitFor();
  });
});

describe('an admin on a desktop (1280 px)', () => {
  it('sees every admin list with its actions in view', async () => {
    const page = await signedInAdmin(DESKTOP);
    for (const list of LISTS) {
      await fromAdminMenu(page, list.item);
      await page.waitForURL((url) => url.pathname === list.path);
      await page.getByRole('heading', { name: list.item, level: 1 }).waitFor();
      await page.locator('main [role="status"]').first().waitFor({ state: 'detached' }).catch(() => {});
      if (list.item === 'Cashouts') await page.getByRole('row').filter({ hasText: cashoutId }).waitFor();
      if (list.item === 'Webhooks') await page.getByRole('button', { name: 'Delivery log' }).first().click();
      expect(await overflows(page), list.item).toEqual([]);
      await shop.screenshot(page, `72-desktop-${list.path.split('/').pop()}`);
    }
  });

  it("opens 'Mark Paid' on a cashout and sees its Cancel button in full", async () => {
    const page = await signedInAdmin(DESKTOP);
    await page.goto('/admin/cashouts');
    const row = page.getByRole('row').filter({ hasText: cashoutId });
    await row.getByRole('button', { name: 'Mark Paid' }).click();
    const cancel = row.getByRole('button', { name: 'Cancel' });
    await cancel.waitFor();
    expect(await notInView(cancel)).toEqual([]);
    expect(await notInView(row.getByRole('textbox', { name: 'Payout tx hash' }))).toEqual([]);
    await shop.screenshot(page, '73-desktop-cashout-mark-paid');
    await cancel.click();
    await row.getByRole('button', { name: 'Mark Paid' }).waitFor();
  });

  it('opens the queue dashboard from the admin menu: nothing from another host, and a way back to the shop', async () => {
    const page = await signedInAdmin(DESKTOP);
    const shopOrigin = new URL(shop.baseUrl).origin;
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== shopOrigin) elsewhere.push(request.url());
    });
    await fromAdminMenu(page, 'Queues');
    await page.waitForURL((url) => url.pathname === '/admin/queues');
    await page.getByText('ETH Shop queues').first().waitFor();
    await page.locator('main').getByText('payment-verify', { exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(elsewhere).toEqual([]);
    await shop.screenshot(page, '74-queues', { thirdParty: true });

    // The way back: a link on screen at phone width.
    const back = page.getByRole('link', { name: '← Back to the shop' });
    const box = (await back.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await back.click();
    await page.waitForURL((url) => url.pathname === '/');
    await header(page).getByRole('button', { name: 'Admin menu' }).waitFor();
    expect(elsewhere).toEqual([]);
  });
});

describe('the phone header (390 px)', () => {
  it('shows a guest the cart link and its count without opening the menu', async () => {
    const page = await shop.newPage({ viewport: PHONE });
    await page.goto('/');
    await page.getByRole('link', { name: 'Gold Package' }).first().click();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.waitForURL('**/cart');
    await page.goto('/');
    const cart = header(page).getByRole('link', { name: /^Cart/ });
    await expect.poll(() => cart.innerText()).toMatch(/Cart\s*1/);
    expect(await header(page).getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
    expect(await notInView(cart)).toEqual([]);
    expect(await overflows(page)).toEqual([]);
    await shop.screenshot(page, '75-phone-header-guest');
  });

  it('shows a shopper the cart link and its count, and their menu behind the menu button', async () => {
    const page = await shop.newPage({ viewport: PHONE });
    await signInThroughUi(page, buyer.email, buyer.password);
    await page.evaluate(() =>
      window.localStorage.setItem('cart', JSON.stringify({ cartItems: [{ _id: 'p1', name: 'Gold Package', image: '', price: 249.5, countInStock: 9, qty: 3 }], itemsPrice: '0', totalPrice: '0' })),
    );
    await page.reload();
    const cart = header(page).getByRole('link', { name: /^Cart/ });
    await expect.poll(() => cart.innerText()).toMatch(/Cart\s*3/);
    expect(await notInView(cart)).toEqual([]);
    expect(await header(page).getByRole('button', { name: buyer.name }).isVisible()).toBe(false);
    await shop.screenshot(page, '76-phone-header-shopper');
    await header(page).getByRole('button', { name: 'Open menu' }).click();
    await shop.screenshot(page, '77-phone-header-shopper-menu');
    await header(page).getByRole('button', { name: buyer.name }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
    await page.keyboard.press('Escape');
  });
});
