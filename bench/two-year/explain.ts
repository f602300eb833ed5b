import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { allIds, creditDaily, indexBlocks, PrismaClient, reconcile, type Runtime } from '@shop/core';
import { orderReference } from '@shop/core/contract';
import { ANVIL_ACCOUNTS } from '../../scripts/testing/chain.ts';
import { jsonRpc } from '../lib/rpc.ts';
import { checkBalances, checkCashouts, checkOrders, checkPackages, checkRefunds } from '../../core/src/reconcile/subjects.ts';
import { createApp } from '../../api/src/app.ts';
import { openSession } from '../../api/src/middleware/auth.ts';

/**
 * Every query the api's lists and the worker's jobs send, captured as they run against
 * the two-year data and planned again with EXPLAIN: a sequential scan of a large table in
 * any of them is a query whose cost grows with the shop's history. The api runs in this
 * process over a Prisma client that reports each query with its parameters; the jobs run
 * over the same client.
 */

/** Tables that grow with the history; a sequential scan of any of them is a finding. */
export const LARGE_TABLES = [
  'User', 'Session', 'Product', 'StockMovement', 'Order', 'OrderItem', 'PaymentQuote', 'Payment', 'PaymentReport', 'LedgerEntry',
  'CashoutRequest', 'Refund', 'PayoutCheck', 'WebhookEvent', 'WebhookDelivery', 'WebhookAttempt', 'IndexedBlock', 'ReconciliationRun',
];

/**
 * Rows (the planner's count) from which a table of LARGE_TABLES counts as large here.
 * Below it a sequential read is the planner's right choice, not a missing index: the
 * audit's batch of 2,000 of the 20,000 refunds (711 pages) is read whole more cheaply
 * than by 2,000 index probes, and once the table is 25 batches long the planner takes
 * the index for the same query. Reconciliation runs (kept a week) stay below it too.
 */
const MIN_LARGE_ROWS = 50_000;

export type Captured = { source: string; sql: string; params: unknown[] };
export type SeqScan = { source: string; table: string; rows: number; sql: string };

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Plan Rows'?: number; Plans?: PlanNode[] };

function seqScansOf(node: PlanNode, out: { table: string; rows: number }[] = []) {
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] && LARGE_TABLES.includes(node['Relation Name'])) {
    out.push({ table: node['Relation Name'], rows: node['Plan Rows'] ?? 0 });
  }
  for (const child of node.Plans ?? []) seqScansOf(child, out);
  return out;
}

export type Accounts = { adminId: string; buyerId: string; referrerId: string };

/**
 * Runs each list (first page, filters, and a page 1,000 rows deep) and each job once,
 * capturing its queries, then EXPLAINs every distinct query. `runtime` is a script
 * runtime on the two-year database (its db is replaced by an instrumented one here).
 */
export async function explainLists(runtime: Runtime, url: string, accounts: Accounts): Promise<{ queries: number; sources: number; seqScans: SeqScan[] }> {
  const captured: Captured[] = [];
  let source = 'setup';
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 4 }), log: [{ emit: 'event', level: 'query' }] });
  db.$on('query', (e) => captured.push({ source, sql: e.query, params: JSON.parse(e.params) as unknown[] }));
  const deps = { ...runtime, db } as Runtime;
  const server = createServer(createApp(deps));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const admin = (await openSession(deps, accounts.adminId)).cookie;
    const buyer = (await openSession(deps, accounts.buyerId)).cookie;
    const referrer = (await openSession(deps, accounts.referrerId)).cookie;
    const get = async (path: string, cookie?: string) => {
      const res = await fetch(`${base}${path}`, { headers: cookie ? { cookie } : {} });
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      return { body: (await res.json()) as unknown, next: /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null };
    };
    /** The first page, then the page 1,000 rows deep (20 pages of 50), each captured under its own name. */
    const list = async (name: string, path: string, cookie?: string) => {
      source = `${name}: first page`;
      let page = await get(path, cookie);
      for (let i = 1; i < 20 && page.next; i++) {
        source = 'walking';
        page = await get(page.next, cookie);
      }
      if (page.next) {
        source = `${name}: 1,000 rows deep`;
        await get(page.next, cookie);
      }
      return page.body;
    };
    const someOrder = ((await list('admin orders', '/api/orders', admin)) as { _id: string }[])[0]?._id ?? '';
    source = 'setup';
    const someTx = ((await db.payment.findFirst({ where: { status: 'COUNTED' }, select: { txHash: true } }))?.txHash) ?? '';
    const buyerEmail = (await db.user.findUniqueOrThrow({ where: { id: accounts.buyerId } })).email;
    const endpoint = (await db.webhookEndpoint.findFirst({ select: { id: true } }))?.id;
    const openTransfer = (await db.payment.findFirst({ where: { status: { in: ['UNRESOLVED', 'LATE'] }, source: { not: 'INFLOW' } }, select: { id: true } }))?.id;
    const calls: [string, string, string?][] = [
      ['admin orders by status', '/api/orders?status=PENDING_PAYMENT,UNDERPAID,VERIFYING', admin],
      ['admin orders by buyer e-mail', `/api/orders?q=${encodeURIComponent(buyerEmail)}`, admin],
      ['admin orders by name', '/api/orders?q=referrer', admin],
      ['admin orders by id', `/api/orders?q=${someOrder}`, admin],
      ['admin orders by transaction', `/api/orders?q=${someTx}`, admin],
      ['admin orders by date', '/api/orders?from=2026-01-01&to=2026-01-31', admin],
      ['admin orders by a reference without ORD-', `/api/orders?q=${orderReference(someOrder).slice(4)}`, admin],
      ['admin users', '/api/users', admin],
      ['admin users search', '/api/users?q=referrer', admin],
      ['catalogue', '/api/products'],
      ['catalogue search', '/api/products?q=package%2012'],
      ['open cashouts', '/api/admin/cashouts?status=REQUESTED,NOTIFIED', admin],
      ['cashouts', '/api/admin/cashouts', admin],
      ['refunds', '/api/admin/refunds', admin],
      ['open refunds', '/api/admin/refunds?status=REQUESTED', admin],
      ['overpaid orders', '/api/admin/refunds/overpaid', admin],
      ['transfers needing an admin', '/api/admin/payments', admin],
      ['counted transfers', '/api/admin/payments?status=COUNTED', admin],
      ['webhook endpoints', '/api/admin/webhooks', admin],
      ...(endpoint ? ([['webhook deliveries', `/api/admin/webhooks/${endpoint}/deliveries`, admin]] as [string, string, string][]) : []),
      ...(openTransfer
        ? ([["the 10,000-order buyer's open orders, to assign a transfer", `/api/admin/payments/${openTransfer}/orders?q=${encodeURIComponent(buyerEmail)}`, admin]] as [string, string, string][])
        : []),
      ["the 10,000-order buyer's orders", '/api/orders/mine', buyer],
      ["the buyer's paid orders", '/api/orders/mine?status=PAID', buyer],
      ['the 50,000-referral profile', '/api/users/profile', referrer],
      ['the referral list', '/api/users/profile/referrals', referrer],
      ["the 10,000-order buyer's statement", '/api/users/profile/statement', buyer],
      ["the referrer's statement", '/api/users/profile/statement', referrer],
      ["a user's waiting cashouts", '/api/users/profile/cashouts', buyer],
      ['reconciliation report', '/api/admin/reconciliation', admin],
    ];
    for (const [name, path, cookie] of calls) await list(name, path, cookie);
    // The admin overview (a range's figures summed by day) and its CSV exports, every keyset
    // page of a day's file captured (a month of the ledger is about 800,000 entries).
    source = 'admin overview: the last 30 days';
    await get('/api/admin/overview', admin);
    source = 'admin overview: a month';
    await get('/api/admin/overview?from=2026-01-01&to=2026-01-31', admin);
    for (const file of ['paid-orders', 'orders', 'payments', 'ledger']) {
      source = `csv export: ${file}.csv of a day`;
      const res = await fetch(`${base}/api/admin/export/${file}.csv?from=2026-01-15&to=2026-01-15`, { headers: { cookie: admin } });
      const csv = await res.text();
      if (res.status !== 200) throw new Error(`GET ${file}.csv answered ${res.status}: ${csv.slice(0, 200)}`);
    }
    source = 'order detail';
    await get(`/api/orders/${someOrder}`, admin);

    // The indexer reading one new block that pays the shop (a chain runs behind the bench's shop).
    source = 'setup';
    const rpc = jsonRpc(runtime.config.ethRpcUrl);
    await rpc.call('eth_sendTransaction', [{ from: ANVIL_ACCOUNTS[2], to: runtime.config.receivingAddress, value: '0x38d7ea4c68000' }]);
    await indexBlocks(deps, { maxBlocks: 100_000 });
    await rpc.call('eth_sendTransaction', [{ from: ANVIL_ACCOUNTS[2], to: runtime.config.receivingAddress, value: '0x38d7ea4c68001' }]);
    source = 'job: the indexer, one block';
    await indexBlocks(deps, { maxBlocks: 1 });

    source = 'job: daily credit';
    await creditDaily(db, new Date());
    source = 'job: scheduled reconciliation';
    await reconcile({ ...deps, db }, { since: new Date(Date.now() - 15 * 60_000), chain: false });
    // The full audit reads everything: its queries are those of one batch of each walk.
    source = 'job: full audit (a batch of each walk)';
    const discard = () => {};
    for (const [table, check] of [
      ['User', checkBalances],
      ['Order', checkOrders],
      ['CashoutRequest', checkCashouts],
      ['Refund', checkRefunds],
      ['Product', checkPackages],
    ] as const) {
      const first = await allIds(db, table, 2_000).next();
      if (!first.done) await check(db, first.value, discard);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await db.$disconnect();
  }

  // Plan each distinct query once, with the parameters it ran with.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const seqScans: SeqScan[] = [];
  const seen = new Set<string>();
  let queries = 0;
  try {
    const { rows: sizes } = await client.query<{ relname: string; n: number }>('SELECT relname, reltuples::float8 AS n FROM pg_class WHERE relname = ANY($1)', [LARGE_TABLES]);
    const large = new Set(sizes.filter((r) => r.n >= MIN_LARGE_ROWS).map((r) => r.relname));
    for (const q of captured) {
      if (q.source === 'walking' || q.source === 'setup' || !/^\s*(SELECT|WITH)/i.test(q.sql)) continue;
      const key = `${q.source}\n${q.sql}`;
      if (seen.has(key)) continue;
      seen.add(key);
      queries++;
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${q.sql}`, q.params);
      for (const scan of seqScansOf(rows[0]!['QUERY PLAN'][0].Plan)) if (large.has(scan.table)) seqScans.push({ source: q.source, ...scan, sql: q.sql.slice(0, 300) });
    }
  } finally {
    await client.end();
  }
  return { queries, sources: new Set(captured.map((c) => c.source)).size, seqScans };
}
