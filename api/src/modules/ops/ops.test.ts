import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { waitFor } from '../../../../scripts/testing/chain.ts';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

let kit: ApiTestKit;
let admin: TestUser;
let user: TestUser;
beforeAll(async () => {
  kit = await createApiTestKit({ chain: true });
  admin = await kit.createUser({ isAdmin: true });
  user = await kit.createUser();
});
afterAll(async () => {
  await kit?.close();
});

describe('queue dashboard', () => {
  it('is for admins only: guests are sent to sign in, users get 403', async () => {
    const guest = await request(kit.app).get('/admin/queues').set('Accept', 'text/html');
    expect(guest.status).toBe(302);
    expect(guest.headers.location).toBe('/login?redirect=%2Fadmin%2Fqueues');
    expect((await request(kit.app).get('/admin/queues/api/queues')).status).toBe(401);
    const asUser = await kit.as(user);
    expect((await asUser.get('/admin/queues')).status).toBe(403);
    expect((await asUser.get('/admin/queues/api/queues')).status).toBe(403);
    expect((await asUser.put('/admin/queues/api/queues/email/retry/failed')).status).toBe(403);
  });

  it('shows every queue to an admin', async () => {
    const asAdmin = await kit.as(admin);
    const page = await asAdmin.get('/admin/queues');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root">');
    const api = await asAdmin.get('/admin/queues/api/queues');
    expect(api.status).toBe(200);
    const names = (api.body.queues as { name: string }[]).map((q) => q.name).sort();
    expect(names).toEqual([
      'chain-index', 'daily-credit', 'deposit-sweep', 'email', 'order-expire', 'payment-relay', 'payment-sweep', 'payment-verify', 'payout-verify', 'reconcile', 'retention',
      'webhook-deliver', 'webhook-dispatch',
    ]);
  });

  it('loads nothing from another host: no link to one in the page, and a CSP that refuses any', async () => {
    const asAdmin = await kit.as(admin);
    const page = await asAdmin.get('/admin/queues');
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/(href|src)="(https?:)?\/\//);
    expect(page.text).not.toContain('googleapis');
    // Its own stylesheet and scripts are still there.
    expect(page.text).toMatch(/<link href="static\/css\/main\.[0-9a-f]+\.css" rel="stylesheet">/);
    const csp = Object.fromEntries(
      String(page.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    for (const directive of ['default-src', 'script-src', 'style-src', 'font-src', 'img-src', 'connect-src']) {
      expect(csp[directive].filter((source: string) => !["'self'", "'unsafe-inline'", 'data:'].includes(source)), directive).toEqual([]);
    }
    // The way back to the shop: a link on screen, and in the board's own menu.
    expect(page.text).toContain('<a href="/" id="back-to-shop"');
    expect(JSON.parse(/<script id="__UI_CONFIG__" type="application\/json">(.*?)<\/script>/s.exec(page.text)![1]!)).toMatchObject({
      miscLinks: [{ text: 'Back to the shop', url: '/' }],
    });
  });

  it("answers an action on a job no longer in the state it needs with 409, and a missing job with 404, never 500", async () => {
    const job = await kit.env.runtime.queues.email.add('receipt', { kind: 'receipt', orderId: '00000000-0000-4000-8000-000000000000' } as never, { jobId: 'dashboard-probe' });
    const asAdmin = await kit.as(admin);
    // Waiting, not delayed: there is nothing to promote (bull-board answered 500).
    const promote = await asAdmin.put(`/admin/queues/api/queues/email/${job.id}/promote`);
    expect(promote.status).toBe(409);
    expect(promote.body.message).toMatch(/not in the delayed state/);
    expect((await asAdmin.put('/admin/queues/api/queues/email/no-such-job/promote')).status).toBe(404);
    await job.remove();
  });
});

describe('metrics', () => {
  it('exposes HTTP latency, queue depth, payments and indexer lag in Prometheus format', async () => {
    await request(kit.app).get('/api/products');
    await request(kit.app).get('/api/products/00000000-0000-4000-8000-000000000000');
    await request(kit.app).get('/api/users/profile');
    const res = await request(kit.app).get('/metrics');
    expect(res.status).toBe(200);
    // Labelled by the route pattern, never the raw path.
    expect(res.text).toMatch(/shop_http_request_duration_seconds_count\{method="GET",route="\/api\/products",status="200"\} 1/);
    expect(res.text).toMatch(/shop_http_request_duration_seconds_count\{method="GET",route="\/api\/products\/:id",status="404"\} 1/);
    expect(res.text).toMatch(/shop_http_request_duration_seconds_count\{method="GET",route="\/api\/users\/profile",status="401"\} 1/);
    expect(res.text).toContain('shop_queue_jobs{queue="payment-verify",state="failed"} 0');
    expect(res.text).toContain('# TYPE shop_payments gauge');
    expect(res.text).toContain('# TYPE shop_indexer_lag_blocks gauge');
  });

  it('answers the open payments from the last count at once and counts again behind the scrape once it is METRICS_COUNT_CACHE_MS old (a count walks every open transfer)', async () => {
    const counting = await createApiTestKit({ env: { METRICS_COUNT_CACHE_MS: '0' } });
    const pending = (text: string) => Number(/^shop_payments\{status="PENDING",source="REPORTED"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    const scrape = async () => pending((await request(counting.app).get('/metrics')).text);
    const report = (n: number) =>
      counting.db.payment.create({ data: { txHash: `0x${n.toString(16).padStart(64, 'c')}`, source: 'REPORTED', status: 'PENDING' } });
    try {
      await report(1);
      expect(await scrape()).toBe(1);
      await report(2);
      // The scrape answers the count it holds and starts the next one; a later scrape has it.
      expect(await scrape()).toBe(1);
      await waitFor('the count to reach the second payment', async () => (await scrape()) === 2);
    } finally {
      await counting.close();
    }
  });

  it('requires the bearer token when one is configured', async () => {
    const locked = await createApiTestKit({ env: { METRICS_TOKEN: 'scrape-token-0123456789' } });
    try {
      expect((await request(locked.app).get('/metrics')).status).toBe(401);
      expect((await request(locked.app).get('/metrics').set('Authorization', 'Bearer scrape-token-0123456789')).status).toBe(200);
    } finally {
      await locked.close();
    }
  });
});

describe("the relay's signed payments in the metrics", () => {
  it('shows the gas the shop paid for those received in the last 24 hours, in wei and dollars, and those on their way', async () => {
    const order = await kit.db.order.create({ data: { userId: user.id, itemsPrice: 10, totalPrice: 10, stockReserved: false } });
    const hour = 3600_000;
    let nonce = 0;
    const authorization = (status: 'RECEIVED' | 'SENT' | 'CONFIRMED' | 'FAILED' | 'DROPPED', hoursAgo: number, feeWei?: string, feeUsd?: string) => ({
      orderId: order.id, userId: user.id, asset: 'USDC' as const, fromAddress: `0x${'a'.repeat(40)}`, toAddress: `0x${'d'.repeat(40)}`, value: 10_000_000,
      validAfter: 0n, validBefore: 2_000_000_000n, nonce: `0x${(++nonce).toString(16).padStart(64, '0')}`, signature: '0x', status,
      feeWei: feeWei ?? null, feeUsd: feeUsd ?? null, createdAt: new Date(Date.now() - hoursAgo * hour),
    });
    const before = await request(kit.app).get('/metrics');
    expect(before.text).toMatch(/^shop_relay_gas_wei_24h 0$/m);
    expect(before.text).toMatch(/^shop_relay_gas_usd_24h 0$/m);
    expect(before.text).toMatch(/^shop_relay_pending 0$/m);
    await kit.db.paymentAuthorization.createMany({
      data: [
        authorization('CONFIRMED', 1, '52000000000000', '0.16'),
        // Failed on chain: its gas was paid all the same.
        authorization('FAILED', 23, '30000000000000', '0.07'),
        // Older than a day: no longer in the window.
        authorization('CONFIRMED', 25, '70000000000000', '0.21'),
        authorization('RECEIVED', 0),
        authorization('SENT', 2),
        authorization('DROPPED', 3),
      ],
    });
    const after = (await request(kit.app).get('/metrics')).text;
    expect(after).toMatch(/^shop_relay_gas_wei_24h 82000000000000$/m);
    expect(after).toMatch(/^shop_relay_gas_usd_24h 0\.23$/m);
    expect(after).toMatch(/^shop_relay_pending 2$/m);
  });
});

describe("the deposit factory's check", () => {
  it("shows the genuine factory trusted (its code is the shop's) in the health details, the metrics and the admin deposits summary", async () => {
    const factory = kit.env.config.depositFactoryAddress?.toLowerCase();
    expect(factory).toMatch(/^0x[0-9a-f]{40}$/);
    const verdict = { address: factory, state: 'trusted', reason: null, checkedAt: expect.any(String) };
    expect((await (await kit.as(admin)).get('/api/health')).body.details.depositFactory).toEqual(verdict);
    expect((await request(kit.app).get('/metrics')).text).toMatch(/^shop_deposit_factory_trusted\{state="trusted"\} 1$/m);
    expect((await (await kit.as(admin)).get('/api/admin/deposits')).body.factory).toEqual(verdict);
  });
});

describe('a halted indexer', () => {
  it('shows in health (503, the chain degraded, the reason for admins) and in metrics', async () => {
    const { db } = kit;
    await db.chainCursor.create({
      data: { chainId: 1, blockNumber: 1n, blockHash: '0x01', haltedAt: new Date(), haltReason: 'The node at ETH_RPC_URL follows another chain.' },
    });
    try {
      const guest = await request(kit.app).get('/api/health');
      expect(guest.status).toBe(503);
      expect(guest.body.checks).toMatchObject({ chain: 'degraded', database: 'ok' });
      const asAdmin = await (await kit.as(admin)).get('/api/health');
      expect(asAdmin.body.details.chain).toMatchObject({ error: 'indexing and payment verification are halted', indexer: { halted: true, reason: 'The node at ETH_RPC_URL follows another chain.' } });
      expect((await request(kit.app).get('/metrics')).text).toMatch(/^shop_indexer_halted 1$/m);
    } finally {
      await db.chainCursor.deleteMany();
    }
    expect((await request(kit.app).get('/metrics')).text).toMatch(/^shop_indexer_halted 0$/m);
  });
});
