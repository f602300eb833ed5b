import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { generate } from 'otplib';
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { createDb, createRuntime, loadConfig, type Db } from '@shop/core';
import { orderReference, webhookEventBody, type WebhookEventType } from '@shop/core/contract';
import { bodyProblem } from '@shop/core/contract/operation-checks';
import { createApp } from '../api/src/app.ts';
import { listRoutes, type RouteEntry } from '../api/src/route-table.ts';
import { forkTs, type TsChild } from '../bench/lib/child.ts';
import { expectDocumentedAnswer } from './helpers.ts';
import { seed } from '../prisma/seed.ts';
import { createTestDatabase, type TestDatabase } from '../scripts/db/test-database.ts';
import { startAnvil, type AnvilInstance } from '../scripts/lib/anvil.ts';
import { REPO_ROOT } from '../scripts/lib/paths.ts';
import { installPriceFeedMock } from '../scripts/lib/price-feed-mock.ts';
import { anvilDriver, ANVIL_ACCOUNTS, waitFor } from '../scripts/testing/chain.ts';
import { START_LIMIT_MS } from '../scripts/testing/processes.ts';
import { freePort, startSmtpServer } from '../scripts/testing/smtp.ts';

/**
 * The shop as it really runs: the api and the worker started as separate processes from
 * their entry points, the way `npm start` runs them, in production mode with the default
 * log level, against real Postgres, Redis, anvil and SMTP. Every route the api's router
 * knows is called as a guest, a user and an admin; a payment goes through the worker;
 * the queue dashboard, metrics, uploads and the built pages are visited; and both
 * processes must still be up (and stop cleanly) at the end.
 */
const ADMIN = { email: 'admin@example.com', password: 'admin-pass-123' };
const METRICS_TOKEN = 'scrape-token-0123456789abcdef';

let database: TestDatabase;
let anvil: AnvilInstance;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let uploadsDir: string;
let db: Db;
let api: TsChild;
let worker: TsChild;
let baseUrl: string;
let env: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase(inject('postgresAdminUrl'), inject('templateDatabase'));
  anvil = await startAnvil();
  await installPriceFeedMock(anvil.rpcUrl, { priceUsd: '3000' });
  smtp = await startSmtpServer();
  uploadsDir = await mkdtemp(path.join(os.tmpdir(), 'shop-uploads-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = {
    NODE_ENV: 'production',
    LOG_LEVEL: '',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    DATABASE_URL: database.url,
    REDIS_URL: inject('redisUrl'),
    QUEUE_PREFIX: `prod${randomBytes(4).toString('hex')}`,
    ETH_RPC_URL: anvil.rpcUrl,
    RECEIVING_ADDRESS: ANVIL_ACCOUNTS[1],
    PAYOUT_ADDRESSES: ANVIL_ACCOUNTS[0],
    JWT_SECRET: randomBytes(32).toString('hex'),
    SMTP_URL: smtp.url,
    OPERATOR_EMAIL: 'ops@example.com',
    METRICS_TOKEN,
    UPLOADS_DIR: uploadsDir,
    WEB_DIST_DIR: path.join(REPO_ROOT, 'web/dist'),
  };
  db = createDb({ url: database.url, poolSize: 2 });
  await seed(db, ADMIN);
  // Everything they print is kept: the checks at the end read the whole log.
  api = forkTs('api/src/server.ts', env, 'api', { keepOutput: 20_000_000 });
  worker = forkTs('worker/src/main.ts', env, 'worker', { keepOutput: 20_000_000 });
  // Starting takes a while on a busy machine (CI shares it): the same limit as every process a test starts.
  await waitFor('the api to answer healthy', async () => (await fetch(`${baseUrl}/api/health`).catch(() => null))?.status === 200, START_LIMIT_MS, 250).catch((err: unknown) => {
    // What the api printed says why (a crash at start, a dependency down).
    throw new Error(`${String(err)}\n${api.output().slice(-4000)}`);
  });
}, START_LIMIT_MS + 60_000);

afterAll(async () => {
  await api?.stop();
  await worker?.stop();
  await db?.$disconnect();
  await smtp?.stop();
  await anvil?.stop();
  await database?.drop();
  if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read as the API documents them
type Res = { status: number; json: () => Promise<any>; text: () => Promise<string>; headers: Headers };
async function call(method: string, url: string, opts: { cookie?: string; body?: unknown; form?: FormData; headers?: Record<string, string> } = {}): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${baseUrl}${url}`, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
  // Every api answer is checked against the published document (e2e/helpers.ts).
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  const json = type.includes('json') && text ? (JSON.parse(text) as unknown) : undefined;
  expectDocumentedAnswer(method, url, res.status, json, type);
  return { status: res.status, headers: res.headers, json: async () => json, text: async () => text };
}

async function signIn(email: string, password: string): Promise<string> {
  const res = await call('POST', '/api/users/login', { body: { email, password } });
  expect(res.status, `login ${email}`).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('jwt='));
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/Secure/i); // production cookies
  return cookie!.split(';')[0]!;
}

const logLines = (child: TsChild) =>
  child
    .output()
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { level: number; msg: string; service?: string }];
      } catch {
        return [];
      }
    });

describe('the api and the worker as npm start runs them (production, default log level)', () => {
  let adminCookie: string;
  let userCookie: string;
  let productId: string;

  it('takes a payment through the worker process: an order is paid from a real transfer', async () => {
    adminCookie = await signIn(ADMIN.email, ADMIN.password);
    // Production requires two-factor sign-in for admins: nothing admin works until it is on.
    const refused = await call('GET', '/api/orders', { cookie: adminCookie });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ twoFactorEnrolment: true });
    const { secret } = (await (await call('POST', '/api/users/2fa/totp', { cookie: adminCookie, body: { password: ADMIN.password } })).json()) as { secret: string };
    const enrolled = await call('POST', '/api/users/2fa/totp/confirm', { cookie: adminCookie, body: { code: await generate({ secret }) } });
    expect(enrolled.status).toBe(200);
    expect((await call('GET', '/api/orders', { cookie: adminCookie })).status).toBe(200);
    const registered = await call('POST', '/api/users', { body: { email: 'buyer@example.com', password: 'buyer-pass-123', name: 'Buyer' } });
    expect(registered.status).toBe(201);
    userCookie = await signIn('buyer@example.com', 'buyer-pass-123');

    const products = (await (await call('GET', '/api/products')).json()) as { _id: string; name: string; price: number }[];
    const starter = products.find((p) => p.name === 'Starter Package')!;
    productId = starter._id;
    const placed = await call('POST', '/api/orders', { cookie: userCookie, body: { orderedItems: [{ _id: starter._id, qty: 1 }], itemsPrice: starter.price, totalPrice: starter.price } });
    expect(placed.status).toBe(201);
    const orderId = (await placed.json())._id as string;
    const detail = await (await call('GET', `/api/orders/${orderId}`, { cookie: userCookie })).json();
    const chain = anvilDriver(anvil.rpcUrl);
    const hash = await chain.sendAndWait(ANVIL_ACCOUNTS[2], ANVIL_ACCOUNTS[1], BigInt(detail.quote.amountWei));
    expect((await call('PUT', `/api/orders/${orderId}/purchased`, { cookie: userCookie, body: { txHash: hash } })).status).toBe(202);
    await chain.mine(12); // production: 12 confirmations
    const paid = await waitFor('the worker to mark the order paid', async () => {
      const order = await (await call('GET', `/api/orders/${orderId}`, { cookie: userCookie })).json();
      return order.isPaid ? order : null;
    }, 30_000, 250);
    expect(paid).toMatchObject({ status: 'PAID', payments: [{ txHash: hash, status: 'COUNTED' }] });
    await waitFor('the receipt e-mail', async () => smtp.messages.some((m) => m.subject === `Payment received for order ${orderReference(orderId)}`));
  });

  it('serves the queue dashboard and its API to an admin, metrics to the scraper, uploads and the built pages', async () => {
    const dashboard = await call('GET', '/admin/queues/', { cookie: adminCookie, headers: { accept: 'text/html' } });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain('<div id="root">');
    const queues = await call('GET', '/admin/queues/api/queues', { cookie: adminCookie });
    expect(queues.status).toBe(200);
    expect(((await queues.json()).queues as { name: string }[]).map((q) => q.name)).toContain('payment-verify');

    const metrics = await call('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/shop_http_request_duration_seconds_count\{method="GET",route="\/admin\/queues\/api\/queues",status="200"\}|shop_http_request_duration_seconds_count/);
    expect((await call('GET', '/metrics')).status).toBe(401);

    const form = new FormData();
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#36c' } }).png().toBuffer();
    form.append('image', new Blob([png], { type: 'image/png' }), 'package.png');
    const upload = await call('POST', '/api/uploads', { cookie: adminCookie, form });
    expect(upload.status).toBe(201);
    const image = await call('GET', (await upload.json()).image);
    expect(image.status).toBe(200);
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');

    const index = await call('GET', '/');
    expect(index.status).toBe(200);
    const html = await index.text();
    expect(index.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) expect((await call('GET', asset)).status, asset).toBe(200);
    for (const page of [`/product/${productId}`, '/login', '/cart', `/order/${randomUUID()}`, '/admin', '/admin/orderlist']) {
      const res = await call('GET', page);
      expect(res.status, page).toBe(200);
      expect(res.headers.get('content-type'), page).toMatch(/text\/html/);
    }
  });

  it('publishes its API document, and a reference page that renders under its CSP loading nothing from other hosts', async () => {
    const document = await call('GET', '/api/openapi.json');
    expect(document.status).toBe(200);
    const doc = (await document.json()) as { openapi: string; paths: Record<string, unknown>; webhooks: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).length).toBeGreaterThan(60);
    expect(Object.keys(doc.webhooks)).toContain('order.paid');

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      page.on('console', (msg) => {
        if (/Content Security Policy|Refused to (load|execute|connect|apply|frame|evaluate)/i.test(msg.text())) problems.push(`CSP: ${msg.text()}`);
      });
      page.on('request', (req) => {
        if (!req.url().startsWith(baseUrl) && !req.url().startsWith('data:')) problems.push(`another host: ${req.url()}`);
      });
      const res = await page.goto(`${baseUrl}/api/docs`);
      expect(res?.status()).toBe(200);
      const csp = res?.headers()['content-security-policy'] ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
      await page.getByRole('heading', { name: /ETH Shop API/ }).waitFor({ timeout: 60_000 });
      await page.locator('.opblock-tag').first().waitFor();
      // Swagger UI lists what it could not resolve or parse in the document here.
      expect(await page.locator('.errors-wrapper').count()).toBe(0);
      const dir = path.join(REPO_ROOT, 'test-results', 'screenshots');
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: path.join(dir, 'api-docs.png') });
      // The admin user edit, opened: it says why it differs from DESIGN.md.
      const edit = page.locator('.opblock-put').filter({ hasText: '/api/users/{id}' }).first();
      await edit.locator('.opblock-summary').click();
      await edit.getByText('loadedActiveBalance').first().waitFor();
      await edit.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(dir, 'api-docs-user-edit.png') });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('answers every route of its router as guest, user and admin without a 5xx', async () => {
    // The route list comes from an app built in this process over the same database;
    // the requests go to the api process.
    const runtime = createRuntime(loadConfig({ ...env, NODE_ENV: 'test' }), 'script');
    let routes: RouteEntry[];
    try {
      routes = listRoutes(createApp(runtime));
    } finally {
      await runtime.close();
    }
    expect(routes.length).toBeGreaterThan(60);
    // Spare records for the routes that delete or change what they name.
    const spareUser = await call('POST', '/api/users', { body: { email: `spare-${randomUUID()}@example.com`, password: 'spare-pass-123', name: 'Spare' } });
    const spareUserId = (await spareUser.json())._id as string;
    const spareProduct = (await (await call('POST', '/api/products', { cookie: adminCookie })).json())._id as string;
    const idFor = (route: string) =>
      route.startsWith('/api/users') ? spareUserId : route.startsWith('/api/products') || route.startsWith('/api/admin/products') ? spareProduct : randomUUID();
    const fill = (route: string) =>
      route.replace(/:(\w+)/g, (_m, name: string) => (name === 'id' ? idFor(route) : name === 'queueName' ? 'email' : name === 'queueStatus' ? 'failed' : 'none'));

    const statuses = new Map<number, number>();
    for (const route of routes) {
      // Logging the admin out would end the session the walk goes on with.
      if (route.path === '/api/users/logout') continue;
      for (const cookie of [undefined, userCookie, adminCookie]) {
        const res = await call(route.method, fill(route.path), { cookie, body: route.method === 'GET' ? undefined : {} });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${route.method} ${route.path} as ${cookie === adminCookie ? 'admin' : cookie ? 'user' : 'guest'}`).toBeLessThan(500);
      }
    }
    expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
  });

  it('posts webhook events whose bodies are the ones the document describes', async () => {
    // The payment above wrote at least order.paid to the outbox, as it is sent.
    const events = await db.webhookEvent.findMany({ select: { type: true, payload: true } });
    expect(events.map((e) => e.type)).toContain('order.paid');
    const problems = events.flatMap((e) => {
      const problem = bodyProblem(webhookEventBody(e.type as WebhookEventType), e.payload);
      return problem ? [`${e.type}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('keeps its books: npm run reconcile over the same database and chain finds nothing', () => {
    const run = spawnSync('npm', ['run', '--silent', 'reconcile', '--', '--all-blocks'], { cwd: REPO_ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
    expect(run.stdout + run.stderr).toMatch(/The books reconcile/);
    expect(run.status).toBe(0);
  });

  it('is still up afterwards: both processes alive, healthy, logging at info, and they stop cleanly', async () => {
    expect(api.exitCode(), api.output().slice(-2000)).toBeNull();
    expect(worker.exitCode(), worker.output().slice(-2000)).toBeNull();
    expect((await call('GET', '/api/health')).status).toBe(200);
    const apiLines = logLines(api);
    // Requests are logged at the default level: the listener that once crashed the api runs.
    expect(apiLines.filter((l) => l.msg === 'request completed').length).toBeGreaterThan(50);
    for (const child of [api, worker]) {
      const lines = logLines(child);
      expect(lines.filter((l) => l.level >= 60), `${child.name} fatal lines`).toEqual([]);
      expect(child.output(), child.name).not.toMatch(/uncaught|unhandled rejection|TypeError/i);
    }
    await api.stop();
    await worker.stop();
    expect(api.exitCode()).toBe('0');
    expect(worker.exitCode()).toBe('0');
  });
});
