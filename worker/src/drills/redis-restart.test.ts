import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createRuntime, type Runtime } from '@shop/core';
import { startRedisServer } from '../../../scripts/testing/redis-server.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { reportDrill } from '../../../scripts/testing/drill-report.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';
import { processors } from '../processors/index.ts';
import { startWorkers } from '../worker-manager.ts';
import { keepSchedules } from '../schedules.ts';

const payer = ANVIL_ACCOUNTS[3];

describe('drill: Redis restarted while jobs are queued and running', () => {
  let redis: Awaited<ReturnType<typeof startRedisServer>>;
  let kit: PaymentKit;
  let worker: Runtime;
  let workers: ReturnType<typeof startWorkers>;

  beforeAll(async () => {
    redis = await startRedisServer();
    kit = await createPaymentKit({
      workers: false,
      env: { REDIS_URL: redis.url, PAYMENT_CONFIRMATIONS: '2', MAINTENANCE_INTERVAL_MS: '1000', SWEEP_STALE_MS: '500', INDEXER_INTERVAL_MS: '300' },
    });
    worker = createRuntime(kit.env.config, 'worker');
    workers = startWorkers(worker, processors);
    await keepSchedules(worker, worker.logger);
  });
  afterAll(async () => {
    await workers?.close();
    await worker?.close();
    await kit?.close();
    await redis?.stop();
  });

  it('loses no payment: health goes 503 while Redis is down, recovers, and every order is paid once', async () => {
    const buyer = await kit.createUser();
    const orders = await Promise.all([0, 1, 2, 3].map(() => kit.placeOrder(buyer)));
    // Two reported and waiting for their second confirmation, two not reported at all.
    const hashes: `0x${string}`[] = [];
    for (const o of orders) hashes.push(await kit.chain.sendAndWait(payer, kit.receiving, o.amountWei));
    await kit.report(buyer, orders[2]!.id, hashes[2]!);
    await kit.report(buyer, orders[3]!.id, hashes[3]!);
    expect((await request(kit.app).get('/api/health')).status).toBe(200);

    await redis.stop(); // everything queued in Redis is gone with it
    const down = await request(kit.app).get('/api/health');
    expect(down.status).toBe(503);
    expect(down.body.checks.redis).toBe('degraded');
    // Ordering needs no Redis (the price cache falls back to the feed).
    const late = await kit.placeOrder(buyer);
    orders.push(late);
    const lateHash = await kit.chain.sendAndWait(payer, kit.receiving, late.amountWei);
    // Reporting cannot queue the check: a 503 with a message, and the hash is kept for the sweeper.
    const report = await kit.report(buyer, late.id, lateHash);
    expect(report.status).toBe(503);
    expect(report.body.message).toMatch(/temporarily unavailable/);
    await kit.chain.mine(2);
    await redis.start();
    const restarted = Date.now();
    await waitFor('health to recover', async () => (await request(kit.app).get('/api/health')).status === 200);
    const healthy = Date.now();
    try {
      for (const o of orders) await kit.waitForStatus(o.id, 'PAID');
    } catch (err) {
      const state = await kit.db.order.findMany({ where: { id: { in: orders.map((o) => o.id) } }, include: { payments: true } });
      const schedulers = await worker.queues['chain-index'].getJobSchedulers();
      const cursor = await kit.db.chainCursor.findMany();
      throw new Error(`${(err as Error).message}: ${JSON.stringify(state.map((o) => [o.status, o.payments.map((p) => [p.status, p.confirmations, p.source])]))} schedulers ${schedulers.length} cursor ${JSON.stringify(cursor, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
    }
    const allPaid = Date.now();
    const stored = await kit.db.order.findMany({ where: { id: { in: orders.map((o) => o.id) } } });
    const counted = await kit.db.payment.count({ where: { status: 'COUNTED' } });
    reportDrill(
      `while Redis was down: health ${down.status}, a payment report ${report.status} with a message, orders still placed; health 200 again ${((healthy - restarted) / 1000).toFixed(1)} s after Redis came back (empty); ` +
        `all ${stored.length} orders (2 reported before, 1 during, 2 never) PAID ${((allPaid - restarted) / 1000).toFixed(1)} s after, each paid ${[...new Set(stored.map((o) => o.paidVersion))].join('/')} time(s); ${counted} payments counted`,
    );
    for (const o of stored) expect(o.paidVersion).toBe(1);
    expect(counted).toBe(5);
  });
});
