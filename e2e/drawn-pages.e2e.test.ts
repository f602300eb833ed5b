import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, appRunning, startShop, type Shop } from './shop.ts';

let shop: Shop;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  await shop?.close();
});

/** The packages on sale as the storefront shows them: name and price ('USD $249.50'). */
async function onSale(): Promise<{ id: string; name: string; price: string }[]> {
  const rows = await shop.db.product.findMany({ where: { deletedAt: null, publishedAt: { not: null } }, orderBy: { createdAt: 'desc' } });
  return rows.map((p) => ({ id: p.id, name: p.name, price: `USD $${p.price.toFixed(2)}` }));
}

/** Every console error and uncaught error of a page, from its first load on. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

describe('the storefront arrives drawn', () => {
  it('sends / and /product/:id as HTML with the heading, the packages, their names and prices (no JavaScript run)', async () => {
    const packages = await onSale();
    expect(packages.length).toBeGreaterThan(1);
    const home = await fetch(`${shop.baseUrl}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/text\/html/);
    const html = await home.text();
    expect(html).toContain('<h1 class="text-2xl font-bold tracking-tight">Available Packages :</h1>');
    for (const p of packages) {
      expect(html).toContain(p.name);
      expect(html).toContain(p.price);
    }
    // The largest image: in the markup with its priority, and preloaded from the head.
    expect(html).toMatch(/<img [^>]*fetchpriority="high"[^>]*>/i);
    expect(html.slice(0, html.indexOf('</head>'))).toMatch(/<link rel="preload" as="image" href="\/images\/[\w.-]+"/);
    expect(html).toContain('<title>ETH Shop</title>');

    const gold = packages.find((p) => p.name === 'Gold Package')!;
    const product = await (await fetch(`${shop.baseUrl}/product/${gold.id}`)).text();
    expect(product).toContain(`<h1 class="text-2xl font-bold tracking-tight">${gold.name}</h1>`);
    expect(product).toContain(gold.price);
    expect(product).toContain('Add to Cart');
    expect(product).toContain('<title>Package | ETH Shop</title>');

    // The other drawn pages carry their spec texts too.
    expect(await (await fetch(`${shop.baseUrl}/login`)).text()).toContain('Daxil Olun');
    expect(await (await fetch(`${shop.baseUrl}/register`)).text()).toContain('Registration:');
  });

  it('hydrates with no second read before the first paint and no console error; a linked screen loads its chunks at once; add to cart, a kept referral code and sign in work', async () => {
    const page = await shop.newPage();
    const errors = errorsOf(page);
    const listed = page.waitForResponse((response) => new URL(response.url()).pathname === '/route-preloads.json' && response.ok());
    await page.goto('/');
    await page.getByRole('heading', { name: 'Available Packages :' }).waitFor();
    // The catalogue came with the page: no read of it started before the first paint.
    const early = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.POSITIVE_INFINITY;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes('/api/products') && entry.startTime < paint)
        .map((entry) => entry.name);
    });
    expect(early).toEqual([]);
    // Nor any of the app's code: index.html's script asks for it once the page is painted
    // (web/src/boot.ts), so the stylesheet and images have the connection to themselves.
    const code = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.POSITIVE_INFINITY;
      const boot = document.querySelector<HTMLScriptElement>('script[type="module"]')?.src;
      const scripts = performance.getEntriesByType('resource').filter((entry) => /\/assets\/[^/]+\.js$/.test(entry.name) && entry.name !== boot);
      return { before: scripts.filter((entry) => entry.startTime < paint).map((entry) => entry.name), after: scripts.length };
    });
    expect(code.before).toEqual([]);
    expect(code.after).toBeGreaterThan(3);

    // Once the app is idle it fetches the screens' chunk lists: a screen a link opens asks
    // for all its chunks at once (web/src/app/screen-preloads.ts), not its module first.
    await listed;
    const screens = (await (await fetch(`${shop.baseUrl}/route-preloads.json`)).json()) as { path: string; files: string[] }[];
    const productFiles = screens.find((screen) => screen.path === '/product/:id')?.files ?? [];
    const productChunk = productFiles.find((file) => /\/product-[\w-]+\.js$/.test(file));
    expect(productChunk).toBeDefined();
    const linkedBefore = await page.evaluate(() => Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')).map((link) => link.getAttribute('href')));
    expect(linkedBefore).not.toContain(productChunk);

    await page.getByRole('link', { name: 'Gold Package' }).first().click();
    await page.getByRole('button', { name: 'Add to Cart' }).waitFor();
    const linkedAfter = await page.evaluate(() => Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')).map((link) => link.getAttribute('href')));
    expect(productFiles.filter((file) => !linkedAfter.includes(file))).toEqual([]);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.waitForURL('**/cart');
    await page.getByRole('heading', { name: 'Sum : 1 packet' }).waitFor();

    // A drawn product page opened directly, then the cart with its lines stored in the browser.
    const silver = (await onSale()).find((p) => p.name === 'Silver Package')!;
    await page.goto(`/product/${silver.id}`);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.waitForURL('**/cart');
    await page.getByRole('heading', { name: 'Sum : 2 packet' }).waitFor();
    await page.goto('/cart');
    await page.getByRole('heading', { name: 'Sum : 2 packet' }).waitFor();

    // A referral link kept on another page fills in the drawn register page once it runs,
    // and names whose code it is.
    const { referralCode, name } = await shop.db.user.findUniqueOrThrow({ where: { email: ADMIN.email }, select: { referralCode: true, name: true } });
    await page.goto(`/?ref=${referralCode}`);
    // On a slow phone (the CPU 8 times slower), where React's passes are far apart.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
    await page.goto('/register');
    await page.getByRole('heading', { name: 'Registration:' }).waitFor();
    // The app runs the page itself by then, not only the layout around it (React may
    // hydrate the page's Suspense boundary in a later pass): its fields are React's.
    const hydrated = await page.getByLabel('Referral Code').evaluate((field) => Object.keys(field).some((key) => key.startsWith('__reactProps')));
    expect(hydrated).toBe(true);
    await expect.poll(() => page.getByLabel('Referral Code').inputValue()).toBe(referralCode);
    await page.getByText(`You were invited by ${name}`).waitFor();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

    await page.goto('/login');
    await page.getByRole('heading', { name: 'Daxil Olun' }).waitFor();
    await page.getByLabel('Email Address').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    // Signed in, a drawn page (drawn for a guest) becomes the signed-in visitor's once it runs.
    await page.goto('/');
    await page.getByRole('button', { name: /Ada Admin/ }).first().waitFor();
    expect(errors).toEqual([]);
  });

  it('signs in with what was typed (or filled by a password manager) into the drawn page before the app ran', async () => {
    const page = await shop.newPage();
    const errors = errorsOf(page);
    // The app's code held back until the fields are filled: a slow phone.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/main-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // The frame's own goto: the journey's page.goto waits for the app (shop.ts), held here.
    await page.mainFrame().goto(`${shop.baseUrl}/login`, { waitUntil: 'domcontentloaded' });
    await page.getByLabel('Email Address').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    const started = page.waitForResponse((response) => /\/assets\/main-[\w-]+\.js$/.test(response.url()));
    release();
    await started;
    await appRunning(page);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: /Ada Admin/ }).first().waitFor();
    expect(errors).toEqual([]);
  });
});
