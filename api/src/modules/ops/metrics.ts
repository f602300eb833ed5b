import { Router, type RequestHandler } from 'express';
import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { OPEN_CASHOUT_STATUSES, Prisma, indexerHalt, indexerLag, latestReconciliation, queueNames, relayGasSince, relaysOnTheirWay, sameSecret, withTimeout } from '@shop/core';
import { readSweeperStatus } from '@shop/core/deposit-sweeper/sweeper-status';
import type { AppDeps } from '../../deps.ts';
import type { ResponseSent } from '../../middleware/request-log.ts';
import { LatencyHistogram, type LatencySeries } from './latency-histogram.ts';
import { recentRead } from './recent-read.ts';
import { sweepGasSince, sweepsWaiting, unsweptDeposits } from '../admin-deposits/service.ts';

/** The open cashouts' statuses as literals, x_cashout_open_due's predicate, so the planner can use it. */
const OPEN_STATUSES = Prisma.raw(OPEN_CASHOUT_STATUSES.map((s) => `'${s}'`).join(', '));

/**
 * Prometheus metrics. HTTP latency is measured in this process; everything else is read
 * at scrape time from the shared state (Redis queues, Postgres, the chain), so every api
 * instance reports the same truth whatever worker did the work.
 */
export function createMetrics(deps: AppDeps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'shop_api_' });
  const httpDuration = new LatencyHistogram('shop_http_request_duration_seconds', 'HTTP request latency', [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]);
  registry.registerMetric(httpDuration as unknown as Metric);
  const scrapeErrors = new Counter({
    name: 'shop_metrics_scrape_errors_total',
    help: 'Failed reads while collecting metrics',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  /** A gauge read from shared state at scrape time; a failed read is counted, never thrown. */
  const stateGauge = <L extends string>(
    def: { name: string; help: string; labelNames?: readonly L[]; source: 'redis' | 'database' | 'chain' },
    read: (gauge: Gauge<L>) => Promise<void>,
  ) =>
    new Gauge<L>({
      name: def.name,
      help: def.help,
      labelNames: def.labelNames ?? [],
      registers: [registry],
      async collect() {
        try {
          await read(this);
        } catch {
          scrapeErrors.inc({ source: def.source });
        }
      },
    });

  stateGauge(
    { name: 'shop_queue_jobs', help: 'Jobs per queue and state (depth: waiting+delayed; failures: failed)', labelNames: ['queue', 'state'], source: 'redis' },
    async (g) => {
      // Every queue at once: one after another they were a Redis round trip each, the
      // slowest read of a scrape (25 ms of it on a loaded machine).
      const all = await withTimeout(Promise.all(queueNames.map((name) => deps.queues[name].getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'))), 2_000);
      queueNames.forEach((name, i) => {
        for (const [state, n] of Object.entries(all[i]!)) g.set({ queue: name, state }, n);
      });
    },
  );
  // Payments waiting for the worker or an admin, counted through the partial index
  // x_payment_open_status_source. Transfers nobody claims stay UNRESOLVED, and anyone can
  // send them (dust): after two years a count walked 600,000 entries (40-200 ms). A scrape
  // answers the last count at once and counts again behind it once that is
  // METRICS_COUNT_CACHE_MS old (30 s), so its time does not follow what strangers sent.
  const openPayments = recentRead(
    async () => {
      // Grouped by the enums themselves, from the partial index alone; cast after. One
      // process reads it: starting parallel workers to count a few hundred thousand index
      // entries took longer than the count (120 ms against 40 ms in the two-year shop).
      const [, rows] = await deps.db.$transaction([
        deps.db.$executeRaw`SET LOCAL max_parallel_workers_per_gather = 0`,
        deps.db.$queryRaw<{ status: string; source: string; n: number }[]>`
          SELECT "status"::text, "source"::text, "n" FROM (
            SELECT "status", "source", count(*)::int AS "n" FROM "Payment"
            WHERE "status" IN ('PENDING', 'UNRESOLVED', 'LATE') GROUP BY 1, 2) open`,
      ]);
      return rows;
    },
    { maxAgeMs: deps.config.metricsCountCacheMs, onError: () => scrapeErrors.inc({ source: 'database' }) },
  );
  stateGauge(
    {
      name: 'shop_payments',
      help: 'Open payments by status and source: PENDING (being verified), UNRESOLVED and LATE (waiting for an admin); counted at most METRICS_COUNT_CACHE_MS before the scrape',
      labelNames: ['status', 'source'],
      source: 'database',
    },
    async (g) => {
      const rows = await openPayments();
      g.reset();
      for (const r of rows) g.set({ status: r.status, source: r.source }, r.n);
    },
  );
  // What the worker settled lately, read through Payment(updatedAt): the last hour's work.
  stateGauge(
    {
      name: 'shop_payments_settled_last_hour',
      help: 'Payments last changed in the past hour that are settled, by status (COUNTED: verified, REJECTED, REFUNDED) and source',
      labelNames: ['status', 'source'],
      source: 'database',
    },
    async (g) => {
      const rows = await deps.db.$queryRaw<{ status: string; source: string; n: number }[]>`
        SELECT "status"::text, "source"::text, count(*)::int AS "n" FROM "Payment"
        WHERE "updatedAt" > now() - interval '1 hour' AND "status" IN ('COUNTED', 'REJECTED', 'REFUNDED') GROUP BY 1, 2`;
      g.reset();
      for (const r of rows) g.set({ status: r.status, source: r.source }, r.n);
    },
  );
  stateGauge({ name: 'shop_indexer_lag_blocks', help: 'Blocks between the chain head and the indexer checkpoint', source: 'chain' }, async (g) => {
    const lag = await withTimeout(indexerLag(deps), 2_000);
    if (lag !== null) g.set(Number(lag));
  });
  stateGauge(
    { name: 'shop_indexer_halted', help: '1 while indexing and payment verification are halted (another chain, or a rewind deeper than FINALITY_DEPTH)', source: 'database' },
    async (g) => g.set((await indexerHalt(deps.db, deps.config.chainId)) ? 1 : 0),
  );
  stateGauge(
    {
      name: 'shop_reconciliation_discrepancies',
      help: "Discrepancies the reconciler's latest run found, by check ('all' for the total; 0 when the books reconcile)",
      labelNames: ['check'],
      source: 'database',
    },
    async (g) => {
      const report = await latestReconciliation(deps.db);
      g.reset();
      g.set({ check: 'all' }, report?.discrepancies.length ?? 0);
      const byCheck = new Map<string, number>();
      for (const d of report?.discrepancies ?? []) byCheck.set(d.check, (byCheck.get(d.check) ?? 0) + 1);
      for (const [check, n] of byCheck) g.set({ check }, n);
    },
  );
  stateGauge(
    { name: 'shop_reconciliation_last_run_age_seconds', help: 'Seconds since the reconciler last ran (absent before its first run)', source: 'database' },
    async (g) => {
      const report = await latestReconciliation(deps.db);
      g.reset();
      if (report) g.set((Date.now() - report.startedAt.getTime()) / 1000);
    },
  );
  stateGauge(
    { name: 'shop_cashouts_waiting_over_24h', help: 'Cashout requests not paid or rejected 24 hours after they were made, or after a new wallet\'s wait ended (the payout promise is 1-24 hours)', source: 'database' },
    async (g) => {
      const dayAgo = new Date(Date.now() - 24 * 3600_000);
      // A cashout that waited for its new wallet is due from the end of its wait. Counted
      // from the partial index x_cashout_open_due alone (the open ones by when they are due):
      // reading each open cashout's row took 10 ms for the two-year shop's 2,870.
      const [row] = await deps.db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS "n" FROM "CashoutRequest"
        WHERE "status" IN (${OPEN_STATUSES}) AND coalesce("holdUntil", "createdAt") < ${dayAgo}`;
      g.set(row?.n ?? 0);
    },
  );
  stateGauge(
    { name: 'shop_refunds_waiting', help: 'Refunds requested and not yet paid (a verified payout)', source: 'database' },
    async (g) => g.set(await deps.db.refund.count({ where: { status: 'REQUESTED' } })),
  );
  // Counted through WebhookDelivery(status): the pending ones, and the failed ones the
  // retention job keeps (WEBHOOK_RETENTION_DAYS); delivered ones are no longer counted (a
  // scrape would walk every delivery kept).
  stateGauge(
    {
      name: 'shop_webhook_deliveries',
      help: 'Webhook deliveries waiting (PENDING) and given up after the retries (FAILED, within WEBHOOK_RETENTION_DAYS)',
      labelNames: ['status'],
      source: 'database',
    },
    async (g) => {
      const [row] = await deps.db.$queryRaw<{ pending: number; failed: number }[]>`
        SELECT count(*) FILTER (WHERE "status" = 'PENDING')::int AS "pending", count(*) FILTER (WHERE "status" = 'FAILED')::int AS "failed"
        FROM "WebhookDelivery" WHERE "status" IN ('PENDING', 'FAILED')`;
      g.reset();
      g.set({ status: 'PENDING' }, row?.pending ?? 0);
      g.set({ status: 'FAILED' }, row?.failed ?? 0);
    },
  );
  // The deposit addresses: ETH not yet swept (the partial index of unswept deposits), sweeps
  // waiting, their gas over the last day (DepositSweep(createdAt)), and whether the sweeper
  // waits (its reason is on the admin Payments page and in the worker's log, not a label).
  stateGauge({ name: 'shop_deposits_unswept_wei', help: 'Wei in deposits not yet swept to the receiving address', source: 'database' }, async (g) =>
    g.set(Number((await unsweptDeposits(deps.db)).wei)),
  );
  stateGauge({ name: 'shop_deposit_sweeps_pending', help: 'Sweeps sent and not yet confirmed, failed or dropped', source: 'database' }, async (g) => g.set(await sweepsWaiting(deps.db)));
  stateGauge({ name: 'shop_deposit_sweep_gas_wei_24h', help: 'Gas paid by the sweeps sent in the last 24 hours, in wei', source: 'database' }, async (g) =>
    g.set(Number(await sweepGasSince(deps.db, 24 * 3600_000))),
  );
  stateGauge({ name: 'shop_deposit_sweeper_waiting', help: '1 while the deposit sweeper has deposits to sweep and waits (gas price, budget, wallet: the admin Payments page says why)', source: 'redis' }, async (g) => {
    const status = await withTimeout(readSweeperStatus(deps.redis, deps.config), 2_000);
    g.set(status?.state === 'waiting' ? 1 : 0);
  });
  // Signed payments (EIP-3009) the relay sends for buyers: those not finished
  // (PaymentAuthorization(status, createdAt)), and the gas the shop paid for those received
  // in the last day, a cost of sale (PaymentAuthorization(createdAt)); failed ones' gas is
  // paid too. The relay's own waits are in the worker's log and on the order's page.
  stateGauge({ name: 'shop_relay_pending', help: 'Signed payments received or sent by the relay and not yet confirmed, failed or dropped', source: 'database' }, async (g) =>
    g.set(await relaysOnTheirWay(deps.db)),
  );
  const relayGas24h = () => relayGasSince(deps.db, new Date(Date.now() - 24 * 3600_000));
  stateGauge({ name: 'shop_relay_gas_wei_24h', help: 'Gas paid by the relay for the signed payments received in the last 24 hours, in wei', source: 'database' }, async (g) =>
    g.set(Number((await relayGas24h()).wei)),
  );
  stateGauge(
    { name: 'shop_relay_gas_usd_24h', help: 'Gas paid by the relay for the signed payments received in the last 24 hours, in USD at the ETH price when each was mined', source: 'database' },
    async (g) => g.set(Number((await relayGas24h()).usd)),
  );
  // This process's verdict on the deposit factory (core/src/deposits/factory-trust.ts), read
  // from memory: 0 while new orders get no deposit address (its code is not the shop's, or
  // not checked yet), labelled by that state; the reason is in the health details and on the
  // admin Payments page. No series without a factory.
  new Gauge({
    name: 'shop_deposit_factory_trusted',
    help: "1 while the deposit factory's code is the shop's and new orders get deposit addresses; 0 while it is refused or not yet checked (state label; the reason is in /api/health's details)",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const verdict = deps.depositFactory.verdict();
      this.reset();
      if (verdict.state !== 'off') this.set({ state: verdict.state }, verdict.state === 'trusted' ? 1 : 0);
    },
  });

  /**
   * Mounted in front of each api router: keeps the path it is mounted at, which Express
   * takes off req.baseUrl again when an error leaves the router, so even a refused
   * request is labelled by its route pattern.
   */
  const rememberMount: RequestHandler = (req, res, next) => {
    res.locals.mount = req.baseUrl;
    next();
  };
  // One series per method, route pattern and status: a bounded set, looked up by string.
  const seriesByKey = new Map<string, LatencySeries>();
  /**
   * Observes a response sent whole (the request log's listener hands it over, while the
   * matched route is still on req): labelled by the route pattern, not the raw path,
   * which keeps the label set small.
   */
  const sent: ResponseSent = (req, res, ms) => {
    const mount = typeof res.locals.mount === 'string' ? res.locals.mount : req.baseUrl;
    const path: unknown = req.route?.path;
    const route = path ? `${mount}${String(path)}` : req.originalUrl.startsWith('/api') ? 'unmatched' : 'static';
    const key = `${req.method} ${route} ${res.statusCode}`;
    let series = seriesByKey.get(key);
    if (!series) {
      series = httpDuration.series({ method: req.method, route, status: String(res.statusCode) });
      seriesByKey.set(key, series);
    }
    series.observe(ms / 1000);
  };

  const router = Router();
  router.get('/', async (req, res) => {
    const token = deps.config.metricsToken;
    if (token ? !sameSecret(req.headers.authorization, `Bearer ${token}`) : deps.config.isProduction) {
      res.status(token ? 401 : 404).json({ message: token ? 'Not authorized' : 'Not found' });
      return;
    }
    res.type(registry.contentType).send(await registry.metrics());
  });
  return { sent, rememberMount, router };
}
