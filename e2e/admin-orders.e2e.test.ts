import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderReference } from '@shop/core/contract';
import { ANVIL_ACCOUNTS, waitFor } from '../scripts/testing/chain.ts';
import { quotedWei, signIn } from './helpers.ts';
import { ApiClient, registerThroughApi, toast, unique } from './journey-helpers.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';

/**
 * The admin order page and safer admin actions (issue: "An admin order page", "Safer admin
 * actions"): at 390 px and 1280 px an admin opens an order from the Order List by its
 * reference and sees its transfers, refund and webhook deliveries, finds no 'Delete Order'
 * on the paid order (the reason instead), deletes an unpaid one after confirming; creates a
 * package that stays off the storefront until it is published.
 */
const payer = ANVIL_ACCOUNTS[3];
const treasury = ANVIL_ACCOUNTS[5];
const FINNEY = 10n ** 15n;
const WIDTHS = [390, 1280] as const;

let shop: Shop;
let hooks: Server;
let paidOrder: string;
let paidTx: string;
let payoutTx: string;
const unpaidOrders: string[] = [];

beforeAll(async () => {
  shop = await startShop();
  hooks = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  const admin = new ApiClient(shop.baseUrl);
  expect((await admin.request('POST', '/api/users/login', ADMIN)).status).toBe(200);
  const endpoint = await admin.request('POST', '/api/admin/webhooks', { url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/events`, description: 'fulfilment' });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);

  // A buyer's order paid with 0.005 ETH too much (found by the indexer), the extra refunded and
  // the refund paid out with a real transaction; and two orders left unpaid.
  const { client: buyer } = await registerThroughApi(shop, { name: 'Petra Payer', email: `${unique('petra')}@example.com`, password: 'petra-pass-123' });
  const starter = await shop.db.product.findFirstOrThrow({ where: { name: 'Starter Package' } });
  const place = async () => {
    const res = await buyer.request<{ _id: string }>('POST', '/api/orders', { orderedItems: [{ _id: starter.id, qty: 1 }], itemsPrice: '25.00', totalPrice: '25.00' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body._id;
  };
  paidOrder = await place();
  unpaidOrders.push(await place(), await place());
  const receiving = shop.env.config.receivingAddress as Address;
  paidTx = (await shop.chain.sendAndWait(payer, receiving, (await quotedWei(shop, paidOrder)) + 5n * FINNEY)).toLowerCase();
  await waitFor('the order to be paid', async () => (await shop.db.order.findUniqueOrThrow({ where: { id: paidOrder } })).status === 'PAID');
  const refunds = await admin.request<{ _id: string; amountWei: string; wallet: Address }[]>('POST', '/api/admin/refunds', { orderId: paidOrder });
  expect(refunds.status, JSON.stringify(refunds.body)).toBe(201);
  const refund = refunds.body[0]!;
  payoutTx = (await shop.chain.sendAndWait(treasury, refund.wallet, BigInt(refund.amountWei))).toLowerCase();
  expect((await admin.request('POST', `/api/admin/refunds/${refund._id}/paid`, { payoutTxHash: payoutTx })).status).toBe(202);
  await waitFor('the refund to be paid', async () => (await shop.db.refund.findUniqueOrThrow({ where: { id: refund._id } })).status === 'PAID');
  await waitFor('order.paid to be delivered', async () => (await shop.db.webhookDelivery.count({ where: { subject: `order:${paidOrder}`, status: 'DELIVERED' } })) > 0);
}, 120_000);
afterAll(async () => {
  await shop?.close();
  await new Promise((resolve) => hooks?.close(resolve));
});

async function adminAt(width: number): Promise<Page> {
  const page = await shop.newPage({ viewport: { width, height: 900 } });
  await signIn(page, ADMIN.email, ADMIN.password);
  return page;
}

/** Finds an order in the Order List by its reference (the search takes it) and opens its page. */
async function openOrder(page: Page, orderId: string) {
  const reference = orderReference(orderId);
  await page.goto('/admin/orderlist');
  await page.getByRole('heading', { name: 'Order List' }).waitFor();
  await page.getByRole('searchbox', { name: 'Search orders' }).fill(reference.toLowerCase());
  await page.getByRole('searchbox', { name: 'Search orders' }).press('Enter');
  await page.waitForURL((url) => url.searchParams.get('q') === reference.toLowerCase());
  // The header row and the order's: the reference names one range of ids.
  await expect.poll(() => page.getByRole('row').count()).toBe(2);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: reference }) });
  await row.waitFor();
  return {
    row,
    open: async () => {
      await row.getByRole('link', { name: reference }).click();
      await page.waitForURL(`**/admin/order/${orderId}`);
      await page.getByRole('heading', { name: reference, level: 1 }).waitFor();
    },
  };
}

describe.each(WIDTHS)('an admin at %i px', (width) => {
  it('opens a paid order from the list by its reference: its transfer, refund and deliveries, and no Delete Order', async () => {
    const page = await adminAt(width);
    const { row, open } = await openOrder(page, paidOrder);
    expect(await row.getByRole('button', { name: 'Delete Order' }).count()).toBe(0);
    await row.getByText('Paid orders cannot be deleted').waitFor();
    await shop.screenshot(page, `admin-orders-list-${width}`);
    await open();

    const transfers = page.getByRole('region', { name: 'Transfers' });
    await transfers.getByText(paidTx).waitFor();
    await transfers.getByText('Counted', { exact: true }).waitFor();
    await transfers.getByText(/^\d+ of \d+$/).waitFor();
    const refunds = page.getByRole('region', { name: 'Refunds' });
    await refunds.getByText(payoutTx).waitFor();
    await refunds.locator('[data-slot="badge"]', { hasText: 'Paid' }).waitFor();
    await page.getByRole('region', { name: 'Webhook deliveries' }).getByText('order.paid').first().waitFor();
    await page.getByRole('region', { name: 'Summary' }).getByText(/USD \$0\.00 refunded|refunded or credited/).waitFor();
    const actions = page.getByRole('region', { name: 'Actions' });
    await actions.getByText('Delete Order: Paid orders cannot be deleted.').waitFor();
    expect(await page.getByRole('button', { name: 'Delete Order' }).count()).toBe(0);
    // Nothing runs off the side of a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shop.screenshot(page, `admin-order-paid-${width}`);
  });

  it('deletes an unpaid order from its page only after confirming', async () => {
    const orderId = width === 390 ? unpaidOrders[0]! : unpaidOrders[1]!;
    const page = await adminAt(width);
    const { open } = await openOrder(page, orderId);
    await open();
    await page.getByRole('region', { name: 'Transfers' }).getByText('No transfer has arrived for this order.').waitFor();
    await page.getByRole('button', { name: 'Delete Order' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Delete order ${orderReference(orderId)}?` });
    await dialog.waitFor();
    await shop.screenshot(page, `admin-order-delete-confirm-${width}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe('PENDING_PAYMENT');

    await page.getByRole('button', { name: 'Delete Order' }).click();
    await dialog.getByRole('button', { name: 'Delete Order' }).click();
    await toast(page, 'Order deleted!').waitFor();
    await page.waitForURL('**/admin/orderlist');
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe('DELETED');
  });

  it('creates a package that stays off the storefront until it is published', async () => {
    const page = await adminAt(width);
    await page.goto('/admin/productlist');
    await page.getByRole('heading', { name: 'Product List' }).waitFor();
    await page.getByRole('button', { name: 'Create Package' }).click();
    await toast(page, 'Product created!').waitFor();
    await page.waitForURL(/\/admin\/products\/[0-9a-f-]{36}\/edit$/);
    const name = unique('Jade Package');
    const form = page.getByRole('form', { name: 'Edit Product' });
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Price').fill('12.00');
    await form.getByLabel('Count In Stock').fill('3');
    await form.getByRole('button', { name: 'Update' }).click();
    await page.waitForURL('**/admin/productlist');
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText('Draft', { exact: true }).waitFor();

    // Hidden from the storefront: the home page and the package's own page.
    const productId = (await shop.db.product.findFirstOrThrow({ where: { name } })).id;
    await page.goto('/');
    await page.getByRole('link', { name: 'Starter Package' }).first().waitFor();
    expect(await page.getByRole('link', { name }).count()).toBe(0);
    expect((await page.request.get(`/api/products/${productId}`)).status()).toBe(404);

    await page.goto('/admin/productlist');
    await row.getByRole('button', { name: `Publish ${name}` }).click();
    await toast(page, `${name} is on sale`).waitFor();
    await row.getByText('Published', { exact: true }).waitFor();
    await shop.screenshot(page, `admin-products-published-${width}`);
    await page.goto('/');
    await page.getByRole('link', { name }).first().waitFor();
    await shop.screenshot(page, `home-published-package-${width}`);
  });
});
