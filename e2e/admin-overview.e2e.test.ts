import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Address } from 'viem';
import { addDays, orderReference, utcDay } from '@shop/core/contract';
import { ANVIL_ACCOUNTS } from '../scripts/testing/chain.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';
import { eventually, registerThroughApi, signInThroughUi, unique } from './journey-helpers.ts';
import { quotedWei } from './helpers.ts';

/**
 * The admin overview (issue: "An admin at 390 px and 1280 px reads yesterday's revenue
 * on the overview chart, exports it as CSV"). A buyer's order is paid on chain through
 * the worker, then dated yesterday; the admin opens Overview from the admin menu at each
 * width, reads yesterday's revenue from the chart's tooltip and from the table of days,
 * narrows the range to yesterday and downloads the paid orders as CSV, whose rows are
 * that order and whose total is the chart's.
 */
const WIDTHS = [
  { name: '1280', viewport: { width: 1280, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 } },
] as const;

let shop: Shop;
let orderId: string;
let yesterday: string;
let revenue: string;

beforeAll(async () => {
  shop = await startShop();
  const buyer = { name: 'Olga Overview', email: `${unique('olga')}@example.com`, password: 'olga-pass-123' };
  const { client } = await registerThroughApi(shop, buyer);
  const starter = await shop.db.product.findFirstOrThrow({ where: { name: 'Starter Package' } });
  const placed = await client.request<{ _id: string }>('POST', '/api/orders', {
    orderedItems: [{ _id: starter.id, qty: 1 }],
    itemsPrice: starter.price.toFixed(2),
    totalPrice: starter.price.toFixed(2),
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  orderId = placed.body._id;
  // Paid the way a buyer pays: the quoted ETH to the shop, found by the indexer.
  await shop.chain.sendAndWait(ANVIL_ACCOUNTS[3], shop.env.config.receivingAddress as Address, await quotedWei(shop, orderId));
  const paid = await eventually('the order to be paid', async () => {
    const o = await shop.db.order.findUniqueOrThrow({ where: { id: orderId } });
    return o.status === 'PAID' ? o : undefined;
  }, 30_000);
  // Then moved a day back, as if it had been paid yesterday (its lines' term with it).
  await shop.db.$transaction([
    shop.db.$executeRaw`UPDATE "Order" SET "paidAt" = "paidAt" - interval '1 day', "createdAt" = "createdAt" - interval '1 day', "expiresAt" = "expiresAt" - interval '1 day' WHERE "id" = ${orderId}::uuid`,
    shop.db.$executeRaw`UPDATE "OrderItem" SET "creditEndsAt" = "creditEndsAt" - interval '1 day' WHERE "orderId" = ${orderId}::uuid`,
    shop.db.$executeRaw`UPDATE "Payment" SET "createdAt" = "createdAt" - interval '1 day' WHERE "orderId" = ${orderId}::uuid`,
  ]);
  // A signed USDC payment the shop relayed yesterday, its gas paid by the shop (the relay's own journey is the pay page's).
  await shop.db.paymentAuthorization.create({
    data: {
      orderId, userId: paid.userId, asset: 'USDC', fromAddress: ANVIL_ACCOUNTS[3].toLowerCase(), toAddress: `0x${'d'.repeat(40)}`, value: 10_000_000, validAfter: 0n,
      validBefore: 2_000_000_000n, nonce: `0x${'1'.padStart(64, '0')}`, signature: '0x', status: 'CONFIRMED', feeWei: '61000000000000', feeUsd: '0.19',
      createdAt: new Date(paid.paidAt!.getTime() - 86_400_000),
    },
  });
  yesterday = utcDay(new Date(paid.paidAt!.getTime() - 86_400_000));
  expect(yesterday).toBe(addDays(utcDay(new Date()), -1));
  revenue = paid.totalPrice.toFixed(2);
});
afterAll(async () => {
  await shop?.close();
});

const header = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Opens the admin menu (on a phone, from the small-screen menu first) and picks an entry. */
async function fromAdminMenu(page: Page, item: string) {
  const toggle = header(page).getByRole('button', { name: 'Open menu' });
  const adminMenu = header(page).getByRole('button', { name: 'Admin menu' });
  // The header once it is drawn for the signed-in admin: the phone's menu button, or the
  // admin menu itself on a wide screen (a look before then found neither on a busy machine).
  await expect.poll(async () => (await toggle.isVisible()) || (await adminMenu.isVisible()), { timeout: 30_000 }).toBe(true);
  if (await toggle.isVisible()) await toggle.click();
  await adminMenu.click();
  // An item with something waiting is named with it ('Cashouts 1 to pay').
  await page.getByRole('menuitem', { name: new RegExp(`^${item}( .+)?$`) }).click();
}

/** Anything wider than the screen: the page, a table's sideways scroll, the chart. */
async function overflows(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const problems: string[] = [];
    if (document.scrollingElement!.scrollWidth > width) problems.push(`the page is ${document.scrollingElement!.scrollWidth}px wide`);
    for (const c of Array.from(document.querySelectorAll<HTMLElement>('[data-slot="table-container"]'))) {
      if (c.scrollWidth > c.clientWidth + 1) problems.push(`${c.querySelector('table')?.getAttribute('aria-label') ?? 'a table'} scrolls sideways (${c.scrollWidth}px)`);
    }
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('main :is(button, a, input, svg.recharts-surface, [data-slot="card"])'))) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && (box.left < -0.5 || box.right > width + 0.5)) problems.push(`'${el.innerText || el.getAttribute('aria-label') || el.tagName}' is at ${Math.round(box.left)}..${Math.round(box.right)}px`);
    }
    return problems;
  });
}

/** The chart's tooltip for the day at `index` of `count`, by pointing at its place in the plot. */
async function tooltipOfDay(page: Page, index: number, count: number, day: string): Promise<string> {
  const chart = page.locator('[data-slot="chart"]');
  await chart.scrollIntoViewIfNeeded();
  const plot = await chart.locator('.recharts-cartesian-grid').boundingBox();
  expect(plot).not.toBeNull();
  await page.mouse.move(plot!.x + (plot!.width * (index + 0.5)) / count, plot!.y + plot!.height / 2);
  const tooltip = chart.locator('.recharts-tooltip-wrapper');
  await expect.poll(() => tooltip.innerText(), { timeout: 5_000 }).toContain(day);
  return tooltip.innerText();
}

/** Minimal RFC 4180 reading: enough for these files (quoted fields without line breaks). */
const csvRows = (text: string) =>
  text
    .split('\r\n')
    .filter(Boolean)
    .map((line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, -1));

describe('the admin overview', () => {
  for (const { name, viewport } of WIDTHS) {
    it(`at ${name} px: reads yesterday's revenue on the chart and exports it as CSV`, async () => {
      const page = await shop.newPage({ viewport });
      await signInThroughUi(page, ADMIN.email, ADMIN.password);
      await fromAdminMenu(page, 'Overview');
      await page.waitForURL((url) => url.pathname === '/admin');
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

      // The last 30 days: yesterday is the second last.
      await page.getByRole('button', { name: 'Last 30 days' }).and(page.locator('[aria-pressed="true"]')).waitFor();
      const tooltip = await tooltipOfDay(page, 28, 30, yesterday);
      expect(tooltip).toContain(`USD $${revenue}`);
      expect(tooltip).toMatch(/Paid orders\s*1/);
      await page.screenshot({ path: `test-results/screenshots/admin-overview-${name}-tooltip.png` });
      // The same figure in the table of days, the chart's text alternative.
      const row = page.getByRole('table', { name: 'Revenue and paid orders per day' }).getByRole('row').filter({ hasText: yesterday });
      expect(await row.getByRole('cell').allInnerTexts()).toEqual([yesterday, `USD $${revenue}`, '1']);
      // What the relay's gas for signed payments cost the shop over the range.
      expect((await page.getByRole('group', { name: 'Gas paid for signed payments' }).innerText()).replace(/\s+/g, ' ')).toBe('Gas paid for signed payments USD $0.19 1 payment · 0.000061 ETH');
      await page.mouse.move(0, 0);
      expect(await overflows(page)).toEqual([]);
      await shop.screenshot(page, `admin-overview-${name}`);

      // Yesterday alone, then its paid orders as CSV.
      await page.getByLabel('From', { exact: true }).fill(yesterday);
      await page.getByLabel('To', { exact: true }).fill(yesterday);
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL((url) => url.searchParams.get('from') === yesterday && url.searchParams.get('to') === yesterday);
      await page.getByText(`USD $${revenue} from 1 paid order over 1 day (UTC)`).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Paid orders (revenue)' }).click()]);
      expect(download.suggestedFilename()).toBe(`paid-orders_${yesterday}_${yesterday}.csv`);
      const [head, ...rows] = csvRows(await readFile((await download.path())!, 'utf8'));
      const col = (n: string) => head!.indexOf(n);
      expect(rows.map((r) => [r[col('orderReference')], r[col('orderId')], r[col('status')], r[col('totalPrice')], r[col('paidAt')]!.slice(0, 10)])).toEqual([
        [orderReference(orderId), orderId, 'PAID', revenue, yesterday],
      ]);
      expect(rows[0]![col('items')]).toBe(`1 x Starter Package @ ${revenue}`);
      expect(await overflows(page)).toEqual([]);
      await shop.screenshot(page, `admin-overview-${name}-yesterday`);
    });
  }

  it('records each download in the audit log, and refuses a range it cannot show', async () => {
    const exports = await shop.db.auditEntry.findMany({ where: { action: 'report.exported' }, orderBy: { seq: 'asc' } });
    expect(exports.map((e) => [e.actorEmail, e.subjectId, e.after])).toEqual(
      WIDTHS.map(() => [ADMIN.email, 'paid-orders.csv', { file: 'paid-orders.csv', from: yesterday, to: yesterday }]),
    );
    const page = await shop.newPage();
    await signInThroughUi(page, ADMIN.email, ADMIN.password, '/admin');
    await page.getByLabel('From', { exact: true }).fill('2020-01-01');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').filter({ hasText: 'At most 366 days at a time' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
  });
});
