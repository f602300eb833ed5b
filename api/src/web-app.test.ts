import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, Prisma } from '@shop/core';
import { SERVER_ENTRY_FILE } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from './testing/api-test-kit.ts';

/**
 * The pages the api draws on the server, with a stand-in for the web build's server
 * bundle (the real one is built and hydrated in e2e/drawn-pages.e2e.test.ts): what it
 * is handed, when it is called, and how its pages are kept and dropped with the catalogue.
 */
const INDEX =
  '<!doctype html><html lang="en"><head><meta name="description" content="Digital packages." /><title>ETH Shop</title>' +
  '<script type="module" crossorigin src="/assets/index-A1.js"></script><link rel="stylesheet" crossorigin href="/assets/index-C3.css"></head>' +
  '<body><div id="root"></div></body></html>';
const SERVER_BUNDLE = `
let calls = 0;
export async function render({ url, locale, currency, data }) {
  calls += 1;
  if (url.startsWith('/throw')) throw new Error('boom');
  const names = (data.products?.items ?? []).map((p) => '<li>' + p.name + '</li>').join('');
  const product = data.product ? '<h1>' + data.product.name + '</h1>' : '';
  return {
    html: '<link rel="preload" as="image" href="/images/gold.svg" fetchPriority="high"/><main data-calls="' + calls + '" data-locale="' + locale + '" data-currency="' + currency + '" data-network="' + data.shopConfig.network.name + '" data-next="' + (data.products?.next ?? '') + '">' + product + '<ul>' + names + '</ul></main>',
    title: 'Drawn | ETH Shop',
    description: 'Drawn "page"',
    state: JSON.stringify({ queries: data.products?.items.length ?? 0 }),
  };
}`;

let kit: ApiTestKit;
let admin: TestUser;
let dist: string;

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'shop-drawn-'));
  await writeFile(path.join(dist, 'index.html'), INDEX);
  await writeFile(
    path.join(dist, 'route-preloads.json'),
    JSON.stringify([
      { path: '/', access: 'public', files: ['/assets/home-B2.js'], data: ['/api/products'], drawn: true },
      { path: '/product/:id', access: 'public', files: ['/assets/product-C3.js'], data: ['/api/products/:id'], drawn: true },
      { path: '/throw', access: 'public', files: [], data: [], drawn: true },
      { path: '/profile', access: 'signed-in', files: ['/assets/profile-D4.js'], data: [], drawn: true },
      { path: '/forgot-password', access: 'public', files: [], data: [] },
    ]),
  );
  await mkdir(path.join(dist, path.dirname(SERVER_ENTRY_FILE)));
  await writeFile(path.join(dist, SERVER_ENTRY_FILE), SERVER_BUNDLE);
  kit = await createApiTestKit({ env: { SERVE_WEB: 'true', WEB_DIST_DIR: dist, CATALOGUE_CACHE_MS: '60000' } });
  admin = await kit.createUser({ name: 'Admin', isAdmin: true });
});
afterAll(async () => {
  await kit?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

const makeProduct = (name: string) =>
  createProduct(kit.db, {
    name,
    image: '/images/gold.svg',
    description: 'Pays every day',
    price: new Prisma.Decimal('49.90'),
    dailyCredit: new Prisma.Decimal('0.25'),
    countInStock: 7,
    rating: new Prisma.Decimal('4.50'),
    numReviews: 3,
    publishedAt: new Date(),
  });

const calls = (html: string) => Number(/data-calls="(\d+)"/.exec(html)?.[1]);

describe('pages drawn on the server', () => {
  it('draws the home page from the catalogue\'s first page into index.html: title, description, language, preloads in the head, the state after #root', async () => {
    await makeProduct('Gold Package');
    const res = await (await kit.as(null)).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.text;
    expect(html).toContain('<li>Gold Package</li>');
    expect(html).toContain('data-locale="en"');
    expect(html).toContain('data-network=');
    expect(html).toContain('<title>Drawn | ETH Shop</title>');
    expect(html).toContain('<meta name="description" content="Drawn &#34;page&#34;" />');
    const head = html.slice(0, html.indexOf('</head>'));
    // What the page paints first, ahead of the app's script; the app's chunks named for
    // that script to fetch once the page is painted, not preloaded with it.
    const painted = head.indexOf('<link rel="stylesheet" crossorigin href="/assets/index-C3.css"><link rel="preload" as="image" href="/images/gold.svg" fetchPriority="high"/>');
    expect(painted).toBeGreaterThan(0);
    expect(painted).toBeLessThan(head.indexOf('<script type="module"'));
    expect(head).toContain('<meta name="shop:modules" content="/assets/home-B2.js">');
    expect(html).not.toContain('modulepreload');
    // The data is in the page: no read of it to preload.
    expect(head).not.toContain('as="fetch"');
    expect(html).toContain('<div id="root"><main');
    expect(html).toContain('</div><script type="application/json" id="shop-state">{"queries":1}</script>');
  });

  it('keeps a drawn page until what it shows changes: an edit of a package draws it again', async () => {
    const product = await makeProduct('Silver Package');
    const first = await (await kit.as(null)).get(`/product/${product.id}`);
    expect(first.text).toContain('<h1>Silver Package</h1>');
    const again = await (await kit.as(null)).get(`/product/${product.id}`);
    expect(calls(again.text)).toBe(calls(first.text));
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((await (await kit.as(null)).get(`/product/${product.id}`).set('If-None-Match', first.headers.etag!)).status).toBe(304);

    const home = await (await kit.as(null)).get('/');
    const edit = await (await kit.as(admin))
      .put(`/api/products/${product.id}`)
      .send({ name: 'Silver Plus', price: '49.90', image: '/images/gold.svg', dailyCredit: '0.25', description: 'Pays every day', countInStock: '7', loadedCountInStock: 7, durationDays: 30 });
    expect(edit.status).toBe(200);
    const after = await (await kit.as(null)).get(`/product/${product.id}`);
    expect(after.text).toContain('<h1>Silver Plus</h1>');
    expect(calls(after.text)).toBeGreaterThan(calls(first.text));
    expect((await (await kit.as(null)).get('/')).text).toContain('<li>Silver Plus</li>');
    expect(home.text).not.toContain('Silver Plus');
  });

  it('sends the app undrawn where it cannot draw: a query, an unknown package, a signed-in screen, a screen not marked, a render that fails', async () => {
    const shell = (html: string) => html.includes('<div id="root"></div>') && !html.includes('shop-state');
    expect(shell((await (await kit.as(null)).get('/?q=gold')).text)).toBe(true);
    expect(shell((await (await kit.as(null)).get('/product/00000000-0000-4000-8000-000000000000')).text)).toBe(true);
    expect(shell((await (await kit.as(null)).get('/product/not-an-id')).text)).toBe(true);
    expect(shell((await (await kit.as(null)).get('/profile')).text)).toBe(true);
    expect(shell((await (await kit.as(null)).get('/forgot-password')).text)).toBe(true);
    const failed = await (await kit.as(null)).get('/throw');
    expect(failed.status).toBe(200);
    expect(shell(failed.text)).toBe(true);
  });

  it('sends a sign-in form posted before the app ran back to its page, its fields unread', async () => {
    const posted = await (await kit.as(null)).post('/login?next=%2Fcart').type('form').send({ email: 'someone@example.com', password: 'secret12345' });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/login?next=%2Fcart');
    // Only to this shop's own pages.
    expect((await (await kit.as(null)).post('//evil.example/login')).headers.location).toBe('/');
    // The api's own routes are not the app's: a POST there is answered by them.
    expect((await (await kit.as(null)).post('/api/nothing-here').send({})).status).toBe(404);
  });

  it("draws each page in the visitor's language and display currency: the cookie first, then Accept-Language, else English; each kept apart", async () => {
    await makeProduct('Language Package');
    const guest = await kit.as(null);
    const lang = (html: string) => /<html lang="([^"]+)">/.exec(html)?.[1];
    const az = await guest.get('/').set('Accept-Language', 'az-AZ,az;q=0.9,en;q=0.5');
    expect(lang(az.text)).toBe('az');
    expect(az.text).toContain('data-locale="az"');
    expect(az.headers.vary).toMatch(/Accept-Language/);
    const ru = await guest.get('/').set('Accept-Language', 'ru');
    expect(lang(ru.text)).toBe('ru');
    expect(ru.headers.etag).not.toBe(az.headers.etag);
    // A language the shop does not speak: English.
    expect(lang((await guest.get('/').set('Accept-Language', 'fr-FR,de')).text)).toBe('en');
    // The footer's choice beats the browser's; an unknown one is ignored.
    const chosen = await guest.get('/').set('Accept-Language', 'ru').set('Cookie', 'shop_locale=az; shop_currency=AZN');
    expect(lang(chosen.text)).toBe('az');
    expect(chosen.text).toContain('data-currency="AZN"');
    expect(lang((await guest.get('/').set('Accept-Language', 'ru').set('Cookie', 'shop_locale=xx')).text)).toBe('ru');
    // A currency the shop does not offer shows USD only.
    expect((await guest.get('/').set('Cookie', 'shop_currency=EUR')).text).toContain('data-currency="USD"');
    // The undrawn app's page names the language too: the app loads its words from it.
    const shell = await guest.get('/forgot-password').set('Accept-Language', 'ru');
    expect(lang(shell.text)).toBe('ru');
    expect(shell.text).toContain('<div id="root"></div>');
    expect(lang((await guest.get('/forgot-password')).text)).toBe('en');
  });
});
