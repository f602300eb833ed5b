import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createRuntime, loadConfig } from '@shop/core';
import { createApp } from './app.ts';
import { openSession, SESSION_COOKIE } from './middleware/auth.ts';
import { createTestEnv, type TestEnv } from '../../scripts/testing/test-env.ts';

/** The environment a test env's config was parsed from, to parse a variant of it. */
const configEnv = (env: TestEnv) => ({
  NODE_ENV: 'test',
  DATABASE_URL: env.config.databaseUrl,
  REDIS_URL: env.config.redisUrl,
  ETH_RPC_URL: env.config.ethRpcUrl,
  QUEUE_PREFIX: env.config.queuePrefix,
});

describe('api skeleton', () => {
  let env: TestEnv;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    env = await createTestEnv({ chain: true });
    app = createApp(env.runtime);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('reports every dependency healthy: ok per dependency for anyone, the details only for admins and the metrics token', async () => {
    const res = await request(app).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok', chain: 'ok', queues: 'ok' } });

    const admin = await env.runtime.db.user.create({ data: { name: 'A', email: 'a@example.com', passwordHash: '!', isAdmin: true, referralCode: 'HEALTHADM1' } });
    const asAdmin = await request(app).get('/api/health').set('Cookie', (await openSession(env.runtime, admin.id)).cookie);
    expect(asAdmin.body.details.chain).toMatchObject({ chainId: 1, indexer: { halted: false } });
    expect(asAdmin.body.details.queues.queues['payment-verify']).toMatchObject({ waiting: 0, failed: 0 });

    const scraper = createApp({ ...env.runtime, config: loadConfig({ ...configEnv(env), METRICS_TOKEN: 'scrape-token-0123456789' }) });
    expect((await request(scraper).get('/api/health').set('Authorization', 'Bearer scrape-token-0123456789')).body.details).toBeDefined();
    expect((await request(scraper).get('/api/health').set('Authorization', 'Bearer wrong-token-0123456789')).body.details).toBeUndefined();
  });

  it('sends security headers on every response: a CSP the app runs under, no framing, no sniffing', async () => {
    const dist = await mkdtemp(path.join(os.tmpdir(), 'shop-dist-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    const withWeb = createApp({ ...env.runtime, config: loadConfig({ ...configEnv(env), SERVE_WEB: 'true', WEB_DIST_DIR: dist }) });
    try {
      for (const url of ['/api/products', '/api/health', '/api/no-such-thing', '/order/123', '/']) {
        const res = await request(withWeb).get(url);
        const csp = String(res.headers['content-security-policy']);
        expect(csp, url).toContain("frame-ancestors 'none'");
        expect(csp, url).toContain("script-src 'self'");
        expect(csp, url).toContain("object-src 'none'");
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
        expect(res.headers['x-frame-options'], url).toBe('DENY');
        expect(res.headers['x-powered-by'], url).toBeUndefined();
      }
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });

  it('serves the web build precompressed: brotli or gzip as the browser accepts, hashed assets immutable, index.html revalidated', async () => {
    const dist = await mkdtemp(path.join(os.tmpdir(), 'shop-dist-'));
    const html = `<!doctype html><title>ETH Shop</title><div id="root"></div>${' '.repeat(2000)}`;
    const js = `console.log(${JSON.stringify('x'.repeat(3000))});`;
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), html);
    await writeFile(path.join(dist, 'index.html.br'), brotliCompressSync(html));
    await writeFile(path.join(dist, 'assets', 'index-Ab12Cd34.js'), js);
    await writeFile(path.join(dist, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(js));
    await writeFile(path.join(dist, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(js));
    await writeFile(path.join(dist, 'robots.txt'), 'User-agent: *\nDisallow: /admin\n');
    const withWeb = createApp({ ...env.runtime, config: loadConfig({ ...configEnv(env), SERVE_WEB: 'true', WEB_DIST_DIR: dist }) });
    // Raw bytes and headers, as a browser receives them (no client-side decompression).
    const server = withWeb.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as AddressInfo).port;
    const raw = (url: string, acceptEncoding: string) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: url, headers: { 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    try {
      const br = await raw('/assets/index-Ab12Cd34.js', 'gzip, deflate, br');
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/Accept-Encoding/);
      expect(br.headers['content-type']).toMatch(/javascript/);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(br.body).toString()).toBe(js);
      const gz = await raw('/assets/index-Ab12Cd34.js', 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe(js);
      const plain = await raw('/assets/index-Ab12Cd34.js', 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(js);
      // The app's pages: index.html, compressed too, and always revalidated.
      for (const url of ['/', '/product/123', '/index.html']) {
        const page = await raw(url, 'br');
        expect(page.status, url).toBe(200);
        expect(page.headers['content-encoding'], url).toBe('br');
        expect(page.headers['cache-control'], url).toBe('no-cache');
        expect(brotliDecompressSync(page.body).toString(), url).toBe(html);
      }
      const robots = await request(withWeb).get('/robots.txt');
      expect(robots.status).toBe(200);
      expect(robots.headers['content-type']).toMatch(/text\/plain/);
      expect(robots.text).toContain('Disallow: /admin');
      expect((await request(withWeb).get('/api/no-such-thing')).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await rm(dist, { recursive: true, force: true });
    }
  });

  it("names each screen's chunks and first read in the page it sends; a signed-in screen asked for signed out gets the sign-in screen's", async () => {
    const dist = await mkdtemp(path.join(os.tmpdir(), 'shop-dist-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><html><head><title>ETH Shop</title></head><body><div id="root"></div></body></html>');
    await writeFile(
      path.join(dist, 'route-preloads.json'),
      JSON.stringify([
        { path: '/', access: 'public', files: ['/assets/home-A1.js'], data: ['/api/products'] },
        { path: '/login', access: 'public', files: ['/assets/login-B2.js'], data: [] },
        { path: '/order/:id', access: 'signed-in', files: ['/assets/pay-C3.js'], data: ['/api/orders/:id'] },
        { path: '/order/:id/purchased', access: 'signed-in', files: ['/assets/purchased-D4.js'], data: [] },
      ]),
    );
    const withWeb = createApp({ ...env.runtime, config: loadConfig({ ...configEnv(env), SERVE_WEB: 'true', WEB_DIST_DIR: dist }) });
    const links = (html: string) => [...html.matchAll(/<link rel="(modulepreload|preload)"[^>]*href="([^"]+)"/g)].map((m) => m[2]);
    try {
      const home = await request(withWeb).get('/');
      expect(home.status).toBe(200);
      expect(home.headers['content-type']).toMatch(/text\/html/);
      expect(home.headers['cache-control']).toBe('no-cache');
      expect(links(home.text)).toEqual(['/assets/home-A1.js', '/api/products']);
      // The app's api client sends credentials, so the read is preloaded with them (or fetched twice).
      expect(home.text).toContain('<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/products">');

      // The home page names no id: built once, the same bytes on every visit.
      expect((await request(withWeb).get('/')).headers.etag).toBe(home.headers.etag);
      // An empty segment is no screen's path, as for the app's router.
      expect(links((await request(withWeb).get('/login//')).text)).toEqual([]);

      const signedIn = `${SESSION_COOKIE}=anything`;
      const pay = await request(withWeb).get('/order/0b7c2f6e-1d2a-4c3b-9e8f-123456789abc').set('Cookie', signedIn);
      expect(links(pay.text)).toEqual(['/assets/pay-C3.js', '/api/orders/0b7c2f6e-1d2a-4c3b-9e8f-123456789abc']);
      // A page that depends on the session is kept by no shared cache.
      expect(pay.headers['cache-control']).toBe('private, no-cache');
      expect(links((await request(withWeb).get('/ORDER/x1/Purchased').set('Cookie', signedIn)).text)).toEqual(['/assets/purchased-D4.js']);
      // Signed out, the app sends the visitor to /login: its chunks, and no read of the order.
      expect(links((await request(withWeb).get('/order/0b7c2f6e-1d2a-4c3b-9e8f-123456789abc')).text)).toEqual(['/assets/login-B2.js']);
      // Only a plain id goes into the page; anything else leaves the read out.
      const odd = await request(withWeb).get('/order/%22%3E%3Cscript%3E').set('Cookie', signedIn);
      expect(links(odd.text)).toEqual(['/assets/pay-C3.js']);
      expect(odd.text).not.toContain('<script>');
      // A path no screen has (the app's 404 page): index.html as it is.
      expect(links((await request(withWeb).get('/no/such/page')).text)).toEqual([]);

      // Revalidation: the same page answers 304 to its ETag.
      const again = await request(withWeb).get('/').set('If-None-Match', String(home.headers.etag));
      expect(again.status).toBe(304);

      // A new build is picked up without a restart.
      await writeFile(path.join(dist, 'route-preloads.json'), JSON.stringify([{ path: '/', access: 'public', files: ['/assets/home-Z9.js'], data: [] }]));
      const later = new Date(Date.now() + 5_000);
      await utimes(path.join(dist, 'index.html'), later, later);
      expect(links((await request(withWeb).get('/')).text)).toEqual(['/assets/home-Z9.js']);

      // A list that cannot be read names nothing: the app still loads.
      await writeFile(path.join(dist, 'route-preloads.json'), '{ not json');
      const latest = new Date(Date.now() + 10_000);
      await utimes(path.join(dist, 'index.html'), latest, latest);
      const plain = await request(withWeb).get('/');
      expect(plain.status).toBe(200);
      expect(links(plain.text)).toEqual([]);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });

  it('gzips JSON for a browser that accepts it; the catalogue compresses its cached body once', async () => {
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as AddressInfo).port;
    const get = (url: string, acceptEncoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: url, headers: { 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    try {
      await env.runtime.db.product.createMany({
        data: Array.from({ length: 8 }, (_, i) => ({ name: `Package ${i}`, image: '/images/gold.svg', description: 'A package. '.repeat(20), price: '10.00' })),
      });
      const plain = await get('/api/products', 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      const list = JSON.parse(plain.body.toString()) as unknown[];
      expect(list.length).toBeGreaterThanOrEqual(8);
      for (let i = 0; i < 2; i++) {
        const zipped = await get('/api/products', 'gzip, br');
        expect(zipped.headers['content-encoding']).toBe('gzip');
        expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
        expect(zipped.headers.etag).toBe(plain.headers.etag);
        expect(JSON.parse(gunzipSync(zipped.body).toString())).toEqual(list);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers 404 with a JSON message for unknown API routes', async () => {
    const res = await request(app).get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found: GET /api/no-such-thing' });
  });

  it('answers 400 with a message for a malformed JSON body, without a stack trace', async () => {
    const res = await request(app).post('/api/health').set('content-type', 'application/json').send('{"oops":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Malformed JSON body' });
  });

  it('answers 503 naming what is down when the chain and database are unreachable', async () => {
    const broken = loadConfig({
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DATABASE'))),
      NODE_ENV: 'test',
      DATABASE_URL: 'postgresql://shop:db-password-42@127.0.0.1:1/nowhere',
      REDIS_URL: env.config.redisUrl,
      // An RPC provider's URL carries its API key: it must never reach a response.
      ETH_RPC_URL: 'http://127.0.0.1:9/v3/rpc-api-key-0123456789',
      QUEUE_PREFIX: env.config.queuePrefix,
      METRICS_TOKEN: 'scrape-token-0123456789',
    });
    const runtime = createRuntime(broken, 'api');
    try {
      const res = await request(createApp(runtime)).get('/api/health');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'degraded', checks: { database: 'degraded', redis: 'ok', chain: 'degraded', queues: 'ok' } });
      const detailed = await request(createApp(runtime)).get('/api/health').set('Authorization', 'Bearer scrape-token-0123456789');
      expect(detailed.body.details.chain.error).toMatch(/^request failed/);
      expect(detailed.body.details.database.error).toBe('did not answer');
      expect(detailed.text).not.toMatch(/rpc-api-key|db-password|127\.0\.0\.1/);
    } finally {
      await runtime.close();
    }
  });
});
