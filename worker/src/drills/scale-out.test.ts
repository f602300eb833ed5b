import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditDays, reconcile } from '@shop/core';
import { ANVIL_ACCOUNTS, waitFor, WAIT_LIMIT_MS } from '../../../scripts/testing/chain.ts';
import { reportDrill } from '../../../scripts/testing/drill-report.ts';
import { processEnv, START_LIMIT_MS, startApiProcess, startWorkerProcess, type ShopProcess } from '../../../scripts/testing/processes.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * The shop as it scales: two api processes and two worker processes (one hearing of
 * blocks by subscription, one by polling) on one Postgres, Redis and node, under a
 * burst of orders and payments; one worker is killed halfway and the other carries on.
 */
const ORDERS = 24;
const CACHE_MS = 1000;
const AUTH_LIMIT = 4;
const payers = ANVIL_ACCOUNTS.slice(2, 6);

describe('drill: two api and two worker processes on one database, Redis and node', () => {
  let kit: PaymentKit;
  let apis: ShopProcess[] = [];
  let workers: ShopProcess[] = [];

  beforeAll(async () => {
    // The kit's own api and workers stay idle: the processes below do the work.
    kit = await createPaymentKit({ workers: false, env: { PAYMENT_CONFIRMATIONS: '2', CATALOGUE_CACHE_MS: String(CACHE_MS), RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_LIMIT) } });
    const env = processEnv(kit.env.config, {
      CATALOGUE_CACHE_MS: String(CACHE_MS),
      RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_LIMIT),
      REFERRAL_REWARD_PERCENT: '10',
      JOB_LOCK_MS: '2000',
      MAINTENANCE_INTERVAL_MS: '1000',
      BLOCK_POLL_MS: '200',
    });
    apis = await Promise.all([startApiProcess('api A', env), startApiProcess('api B', env)]);
    workers = await Promise.all([
      startWorkerProcess('worker 1', { ...env, ETH_WS_URL: kit.env.config.ethRpcUrl.replace(/^http/, 'ws') }),
      startWorkerProcess('worker 2', env),
    ]);
    // The first index run sets the checkpoint: from then on the workers watch the chain.
    await waitFor('the first index run', () => kit.db.chainCursor.findFirst(), WAIT_LIMIT_MS, 50);
  }, 2 * START_LIMIT_MS + WAIT_LIMIT_MS);
  afterAll(async () => {
    await Promise.all([...apis, ...workers].map((p) => p.kill('SIGKILL')));
    await kit?.close();
  });

  const api = (i: number) => apis[i % 2]!.url!;
  async function call(i: number, method: string, path: string, cookie?: string, body?: unknown) {
    const res = await fetch(`${api(i)}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> };
  }

  it('every order paid once, daily credit once, rate limits and catalogue shared, a worker killed and the other carrying on', async () => {
    const admin = await kit.createUser({ isAdmin: true });
    const adminCookie = await kit.cookieFor(admin);
    const referrer = await kit.createUser({ name: 'Referrer' });
    const buyers = await Promise.all(Array.from({ length: ORDERS }, () => kit.createUser({ referredById: referrer.id })));
    const cookies = await Promise.all(buyers.map((b) => kit.cookieFor(b)));

    // A burst of orders, spread over both apis.
    const price = kit.product.price.toFixed(2);
    const placed = await Promise.all(
      buyers.map((_, i) => call(i, 'POST', '/api/orders', cookies[i], { orderedItems: [{ _id: kit.product.id, qty: 1 }], itemsPrice: price, totalPrice: price })),
    );
    expect(placed.map((p) => p.status)).toEqual(placed.map(() => 201));
    const orders = await Promise.all(
      placed.map(async (p, i) => {
        const detail = await call(i + 1, 'GET', `/api/orders/${String(p.body._id)}`, cookies[i]);
        return { id: String(p.body._id), amountWei: BigInt((detail.body.quote as { amountWei: string }).amountWei) };
      }),
    );

    // Rate limits are counted in Redis: attempts spread over both apis share one budget.
    const target = buyers[0]!.email;
    const logins = [];
    for (let i = 0; i < AUTH_LIMIT + 2; i++) logins.push((await call(i, 'POST', '/api/users/login', undefined, { email: target, password: 'wrong-password' })).status);
    expect(logins).toEqual([...Array(AUTH_LIMIT).fill(401), 429, 429]);

    // A product edit on one api shows on the other within CATALOGUE_CACHE_MS.
    const before = await call(1, 'GET', `/api/products/${kit.product.id}`);
    const edit = { name: 'Gold', price: '26.00', image: '/images/gold.svg', dailyCredit: '1.00', description: 'd', countInStock: before.body.countInStock, loadedCountInStock: before.body.countInStock };
    expect((await call(0, 'PUT', `/api/products/${kit.product.id}`, adminCookie, edit)).status).toBe(200);
    // An old price is an answer to a request sent within the cache's life after the edit
    // (an entry's life runs from before its read): judged by when each request was sent,
    // not by how long a busy machine took to answer it.
    const edited = performance.now();
    let staleSent = 0;
    const seen = await waitFor('the edit on api B', async () => {
      const sent = performance.now();
      if ((await call(1, 'GET', `/api/products/${kit.product.id}`)).body.price === 26) return performance.now();
      staleSent = sent - edited;
      return null;
    }, WAIT_LIMIT_MS, 50);
    expect(staleSent).toBeLessThanOrEqual(CACHE_MS);

    // The first half paid (every other hash reported, alternately to each api; the
    // rest left for the indexers), then one worker killed, then the second half.
    const pay = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const hash = await kit.chain.sendAndWait(payers[i % payers.length]!, kit.receiving, orders[i]!.amountWei);
        if (i % 2 === 0) expect((await call(i, 'PUT', `/api/orders/${orders[i]!.id}/purchased`, cookies[i], { txHash: hash })).status).toBe(202);
      }
      await kit.chain.mine(2);
    };
    const allPaid = (from: number, to: number) =>
      waitFor('the orders PAID', async () => (await kit.db.order.count({ where: { id: { in: orders.slice(from, to).map((o) => o.id) }, status: 'PAID' } })) === to - from, 2 * WAIT_LIMIT_MS, 200).catch(async (err: Error) => {
        const left = await kit.db.order.findMany({ where: { id: { in: orders.slice(from, to).map((o) => o.id) }, status: { not: 'PAID' } }, include: { payments: true } });
        const said = workers.map((w) => `${w.name}: ${w.output().slice(-1500)}`).join('\n');
        throw new Error(`${err.message} (orders ${from} to ${to - 1}): ${JSON.stringify(left.map((o) => [o.status, o.payments.map((p) => [p.status, p.reason])]))}\n${said}`);
      });
    await pay(0, ORDERS / 2);
    await allPaid(0, ORDERS / 2);

    // Both workers take the day's credit at once (as both would at midnight): once per order and day.
    const firstPaid = await kit.db.order.findMany({ where: { id: { in: orders.slice(0, ORDERS / 2).map((o) => o.id) } } });
    const upTo = new Date(Math.max(...firstPaid.map((o) => o.paidAt!.getTime())) + 2 * 24 * 3600_000);
    await Promise.all([0, 1, 2, 3].map((n) => kit.env.runtime.queues['daily-credit'].add('daily-credit', { upTo: upTo.toISOString() }, { jobId: `drill-credit-${n}` })));
    const expectedCredits = firstPaid.reduce((n, o) => n + creditDays(o.paidAt!, upTo).length, 0);
    await waitFor('the daily credit jobs', async () => {
      const done = await Promise.all([0, 1, 2, 3].map(async (n) => (await kit.env.runtime.queues['daily-credit'].getJob(`drill-credit-${n}`))?.isCompleted()));
      return done.every(Boolean);
    }, WAIT_LIMIT_MS, 200);
    expect(await kit.db.ledgerEntry.count({ where: { kind: 'DAILY_CREDIT' } })).toBe(expectedCredits);

    await workers[0]!.kill('SIGKILL');
    await pay(ORDERS / 2, ORDERS);
    await allPaid(ORDERS / 2, ORDERS);

    // Paid once each, one counted transfer each, one reward each.
    const rows = await kit.db.order.findMany({ where: { id: { in: orders.map((o) => o.id) } }, include: { payments: true } });
    expect(rows.map((o) => [o.paidVersion, o.payments.filter((p) => p.status === 'COUNTED').length])).toEqual(rows.map(() => [1, 1]));
    const rewards = await kit.referralEntries(referrer.id);
    expect(rewards.map((e) => e.reference).sort()).toEqual(orders.map((o) => `order:${o.id}`).sort());
    expect(rewards.every((e) => e.kind === 'REFERRAL_REWARD')).toBe(true);
    // No job left failed for good, and the books hold.
    expect(await kit.env.runtime.queues['payment-verify'].getFailedCount()).toBe(0);
    const books = await reconcile(kit.env.runtime, { blockWindow: 'all' });
    expect(books.discrepancies).toEqual([]);
    expect([apis[0]!.alive(), apis[1]!.alive(), workers[0]!.alive(), workers[1]!.alive()], workers[1]!.output()).toEqual([true, true, false, true]);

    reportDrill(
      `${ORDERS} orders placed at once over 2 api processes, all 201; each PAID once with one counted transfer and one referral reward (${rewards.length}); ` +
        `${AUTH_LIMIT + 2} failed logins spread over both apis: ${logins.join(', ')}; a price edit on api A seen on api B after ${Math.round(seen - edited)} ms (CATALOGUE_CACHE_MS ${CACHE_MS}); ` +
        `4 daily-credit runs at once: ${expectedCredits} entries, once per order and day; worker 1 (subscription) SIGKILLed after ${ORDERS / 2} payments, worker 2 (polling) paid the other ${ORDERS / 2}; the reconciler found nothing`,
    );
  }, 600_000);
});
