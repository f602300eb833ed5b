import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, startShop, type Shop } from './shop.ts';
import { registerThroughApi, signInThroughUi, unique } from './journey-helpers.ts';
import { waitFor } from '../scripts/testing/chain.ts';

let shop: Shop;
let member: { id: string; name: string; email: string; password: string };
let adminRoutes: string[];

beforeAll(async () => {
  shop = await startShop();
  member = { id: '', name: 'Nina Member', email: `${unique('nina')}@example.com`, password: 'member-pass-123' };
  member.id = (await registerThroughApi(shop, member)).id;
  const product = await shop.db.product.findFirstOrThrow({ where: { name: 'Gold Package' } });
  adminRoutes = ['/admin/orderlist', '/admin/productlist', '/admin/userlist', `/admin/user/${member.id}/edit`, `/admin/products/${product.id}/edit`];
});
afterAll(async () => {
  await shop?.close();
});

/** Visits `path` and waits for the app to settle on /login; returns the redirect param. */
async function expectSentToLogin(page: Page, path: string): Promise<string | null> {
  await page.goto(path);
  await page.waitForURL((url) => url.pathname === '/login');
  await page.getByRole('heading', { name: 'Daxil Olun' }).waitFor();
  return new URL(page.url()).searchParams.get('redirect');
}

describe('signed out', () => {
  it('the signed-in screens send the visitor to /login with a redirect back', async () => {
    const page = await shop.newPage();
    const orderPath = `/order/${randomUUID()}`;
    for (const path of ['/profile', '/placeorder', orderPath, '/profile/cashout']) {
      expect(await expectSentToLogin(page, path), path).toBe(path);
      expect(await page.getByRole('heading', { name: 'Profile', exact: true }).count()).toBe(0);
    }
    await shop.screenshot(page, '70-guard-signed-out');
  });

  it('signing in from the redirect lands back on the screen that was asked for', async () => {
    const page = await shop.newPage();
    expect(await expectSentToLogin(page, '/profile/cashout')).toBe('/profile/cashout');
    await page.getByLabel('Email Address').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/cashout');
    await page.getByRole('heading', { name: 'Cashout', exact: true }).waitFor();
  });

  it('the admin screens send the visitor to /login', async () => {
    const page = await shop.newPage();
    for (const path of adminRoutes) {
      expect(await expectSentToLogin(page, path), path).toBe(path);
    }
    // No admin data reached the page.
    expect(await page.getByRole('table').count()).toBe(0);
    await shop.screenshot(page, '71-guard-admin-signed-out');
  });
});

describe('a signed-in non-admin', () => {
  it('is sent to /login from every admin screen, with a note to sign in as an admin', async () => {
    const page = await shop.newPage();
    await signInThroughUi(page, member.email, member.password);
    for (const path of adminRoutes) {
      expect(await expectSentToLogin(page, path), path).toBe(path);
      await page.getByText(`You are signed in as ${member.name}, who is not an admin.`).waitFor();
      expect(await page.getByRole('table').count()).toBe(0);
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Admin menu' }).count()).toBe(0);
    }
    await shop.screenshot(page, '72-guard-non-admin');
  });
});

describe('an admin', () => {
  it('opens every admin screen', async () => {
    const page = await shop.newPage();
    await signInThroughUi(page, ADMIN.email, ADMIN.password);
    const headings = ['Order List', 'Product List', 'User List', 'Edit User', 'Edit Product'];
    for (const [i, path] of adminRoutes.entries()) {
      await page.goto(path);
      await page.getByRole('heading', { name: headings[i], exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe(path);
    }
  });
});

describe('another site', () => {
  it('cannot frame the shop: the pay page that starts wallet transactions never loads inside it', async () => {
    const orderPath = `/order/${randomUUID()}`;
    const evil = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><html lang="en"><title>Win a prize</title><h1>Win a prize</h1><iframe id="shop" title="The shop" src="${shop.baseUrl}${orderPath}" width="800" height="500"></iframe>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const address = evil.address();
      const evilUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
      const page = await shop.newPage({ expectCspViolations: true });
      const messages: string[] = [];
      page.on('console', (msg) => messages.push(msg.text()));
      await page.goto(evilUrl);
      await waitFor('the browser to refuse the frame', async () => messages.some((m) => m.includes("frame-ancestors 'none'")));
      const framed = page.frames().find((f) => f !== page.mainFrame());
      expect(framed?.url() ?? '').not.toContain(orderPath);
      expect(await page.frameLocator('#shop').getByRole('heading', { name: 'Pay' }).count()).toBe(0);
      await shop.screenshot(page, '74-framing-refused');
    } finally {
      await new Promise((resolve) => evil.close(resolve));
    }
  });
});
