import type { Page } from 'playwright-core';
import type { Address, Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderReference } from '@shop/core/contract';
import { ANVIL_ACCOUNTS } from '../scripts/testing/chain.ts';
import { buyerOnPayPage, expectDocumentedAnswer, quotedWei, scanQr } from './helpers.ts';
import { eventually, signInThroughUi } from './journey-helpers.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';

/**
 * A demo shop says it is one (issue 40): on a development chain, named by
 * SHOP_NETWORK_LABEL, every page (the storefront's and the admin's) carries the
 * test-network banner; the payment request (QR code and wallet link) asks for the shop's
 * own chain id and says it is a test network; 'Success Pay' links the transaction to the
 * explorer EXPLORER_URL names, not to mainnet's; the receipt e-mail names the network.
 */
const WIDTHS = [390, 1280] as const;
const LABEL = 'Demo chain';
const EXPLORER = 'https://explorer.example.org';
const BANNER = `Test network: ${LABEL}. Payments here are not real money.`;

let shop: Shop;
beforeAll(async () => {
  shop = await startShop({ env: { SHOP_NETWORK_LABEL: LABEL, EXPLORER_URL: EXPLORER } });
}, 180_000);
afterAll(async () => {
  await shop?.close();
});

/** How much wider than the screen the page is (0 when it fits). */
const overflow = (page: Page) => page.evaluate(() => Math.max(0, document.scrollingElement!.scrollWidth - window.innerWidth));

async function seesBanner(page: Page): Promise<void> {
  const banner = page.getByRole('complementary', { name: 'Test network' });
  await banner.waitFor();
  expect(await banner.innerText()).toBe(BANNER);
}

describe('GET /api/config', () => {
  it('tells the browser the network: its chain id, its name, a test network, a development chain and the explorer; and the display currencies', async () => {
    const res = await fetch(`${shop.baseUrl}/api/config`);
    const body: unknown = await res.json();
    expectDocumentedAnswer('GET', '/api/config', res.status, body);
    expect(body).toEqual({
      network: { chainId: shop.env.config.chainId, name: LABEL, testNetwork: true, developmentChain: true, explorerUrl: EXPLORER },
      // The demo shop's sample rate, stated with its day.
      displayCurrencies: [{ code: 'AZN', perUsd: '1.70', asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }],
    });
  });
});

describe.each(WIDTHS)('at %i px', (width) => {
  it('the storefront and the admin pages say it is a test network', async () => {
    const visitor = await shop.newPage({ viewport: { width, height: 900 } });
    await visitor.goto('/');
    await seesBanner(visitor);
    expect(await overflow(visitor)).toBe(0);
    await shop.screenshot(visitor, `test-network-home-${width}`);

    const admin = await shop.newPage({ viewport: { width, height: 900 } });
    await signInThroughUi(admin, ADMIN.email, ADMIN.password, '/admin/orderlist');
    await admin.getByRole('heading', { name: 'Order List' }).waitFor();
    await seesBanner(admin);
    expect(await overflow(admin)).toBe(0);
    await shop.screenshot(admin, `test-network-admin-${width}`);
  });
});

describe('paying on the demo shop', () => {
  it("asks for the shop's own chain id, says it is a test network, links the configured explorer and e-mails the network", async () => {
    const email = 'demo.buyer@example.com';
    const { page, orderId } = await buyerOnPayPage(shop, email, false);
    await page.getByRole('heading', { name: 'No browser wallet here: pay from your phone' }).waitFor();
    await seesBanner(page);
    const due = await quotedWei(shop, orderId);
    const request = await scanQr(page, 'QR code of the payment request');
    const receiving = shop.env.config.receivingAddress as Address;
    expect(request).toBe(`ethereum:${receiving}@${shop.env.config.chainId}?value=${due}`);
    expect(await page.getByRole('link', { name: 'Open the payment request in a wallet app' }).getAttribute('href')).toBe(request);
    await page.getByText(`A test network (${LABEL}, chain id ${shop.env.config.chainId}): send from a wallet on this network only, never real ETH.`).waitFor();
    await shop.screenshot(page, 'test-network-pay');

    const hash: Hash = await shop.chain.send(ANVIL_ACCOUNTS[3], receiving, due);
    await page.waitForURL((url) => url.pathname === `/order/${orderId}/purchased` && url.searchParams.get('tx') === hash, { timeout: 30_000 });
    await page.getByText('Success Pay').waitFor();
    const explorerLink = page.getByRole('link', { name: 'View on explorer.example.org' });
    expect(await explorerLink.getAttribute('href')).toBe(`${EXPLORER}/tx/${hash}`);
    expect(await page.getByRole('link', { name: /Etherscan/ }).count()).toBe(0);
    await shop.screenshot(page, 'test-network-success');

    const receipt = await eventually('the receipt e-mail', () => shop.smtp.messages.find((m) => m.subject === `Payment received for order ${orderReference(orderId)}`));
    expect(receipt.text).toContain(`was confirmed on ${LABEL}.`);
    expect(receipt.text).toContain(`Transaction: ${hash}\n  ${EXPLORER}/tx/${hash}`);
  });
});
