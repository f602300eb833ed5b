// Fills a freshly migrated database with the two-year shop, straight in SQL (one INSERT ...
// SELECT per table or time slice, nothing through the API): plan tables first, then the
// shop's tables from them with their keys, indexes and foreign keys dropped; then each
// table vacuumed, the keys, indexes and foreign keys built back as they were, and the
// statistics gathered (VACUUM ANALYZE, in two passes around the index builds).
import pg from 'pg';
import { hashPassword } from '@shop/core';
import { assertSameObjects, dropSql, readLoadObjects, restoreSteps } from './bulk-load.ts';
import { runSteps, type Log, type Step, type Timing } from './runner.ts';
import { KNOWN_EMAILS, KNOWN_PASSWORD, sizesFor, type Sizes } from './shape.ts';
import { SCRATCH_SCHEMA, scratchSql, timelineAt } from './scratch.ts';
import { activitySteps } from './steps-activity.ts';
import { ledgerSteps } from './steps-ledger.ts';
import { orderSteps } from './steps-orders.ts';
import { paymentSteps } from './steps-payments.ts';

export type KnownAccount = { id: string; email: string };
export type KnownAccounts = {
  password: string;
  admin: KnownAccount;
  /** The buyer with the most orders. */
  buyer: KnownAccount;
  /** The user with the most referrals. */
  referrer: KnownAccount;
  /** The buyer's cashout, still REQUESTED a year after it was asked for. */
  openCashout: { id: string; createdAt: string };
};

export type TableTiming = { table: string; rows: number; seconds: number };
export type FillResult = { sizes: Sizes; accounts: KnownAccounts; timings: Timing[]; tables: TableTiming[]; seconds: number };

export type FillOptions = {
  scale: number;
  /** Connections working at once (the machine's cores are a good number). */
  jobs?: number;
  /** The end of the two years (default: now). */
  now?: Date;
  log?: Log;
};

// Each connection: no waiting for the WAL flush at each commit, room to sort in memory.
const SESSION_SETTINGS = [
  'SET synchronous_commit = off',
  "SET maintenance_work_mem = '1GB'",
  "SET work_mem = '256MB'",
  `SET search_path = ${SCRATCH_SCHEMA}, public`,
  "SET DateStyle = 'ISO, YMD'",
  "SET TimeZone = 'UTC'",
  'SET statement_timeout = 0',
  // The row estimates of nested generate_series are large enough to make Postgres compile
  // each statement (seconds each, more than the statement itself takes at a small scale).
  'SET jit = off',
];

/** Tables the shop's data lives in (all but the migrations' bookkeeping). */
const SHOP_TABLES_SQL = `
  SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes, c.reloptions AS options FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
  WHERE s.nspname = 'public' AND c.relkind = 'r' AND c.relname <> '_prisma_migrations' ORDER BY 2 DESC`;

export async function fillTwoYearShop(databaseUrl: string, opts: FillOptions): Promise<FillResult> {
  const log = opts.log ?? (() => {});
  const sizes = sizesFor(opts.scale);
  const timeline = timelineAt(opts.now ?? new Date());
  const started = performance.now();
  const passwordHash = await hashPassword(KNOWN_PASSWORD);
  const lanes: pg.Client[] = [];
  try {
    for (let i = 0; i < Math.max(1, opts.jobs ?? 2); i++) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      lanes.push(client);
      for (const sql of SESSION_SETTINGS) await client.query(sql);
    }
    const main = lanes[0] as pg.Client;
    const filled = await main.query(`SELECT EXISTS (SELECT 1 FROM "User") OR EXISTS (SELECT 1 FROM "Order") OR EXISTS (SELECT 1 FROM "Product") AS filled`);
    if (filled.rows[0]?.filled) throw new Error('The database already holds users, orders or packages: the two-year shop fills a freshly migrated one');

    await main.query(scratchSql(sizes, timeline));
    await main.query(`CREATE UNLOGGED TABLE known_password AS SELECT $1::text AS hash`, [passwordHash]);
    const objects = await readLoadObjects(main);
    const tables = (await main.query<{ name: string; options: string[] | null }>(SHOP_TABLES_SQL)).rows;
    if (tables.some((t) => t.options)) throw new Error('A table has storage options: the load would not put them back as they were');
    await main.query(dropSql(objects));
    // Autovacuum would chase the load table by table; the load vacuums each table once, after.
    await main.query(tables.map((t) => `ALTER TABLE "${t.name}" SET (autovacuum_enabled = false);`).join('\n'));

    log(`Filling (scale ${sizes.scale}: ${sizes.users} users, ${sizes.orders} orders) with ${lanes.length} connection(s):`);
    const timings = await runSteps(lanes, fillSteps(sizes, timeline), log);
    const accounts = await readAccounts(main);
    await main.query(`SELECT setval(pg_get_serial_sequence('"WebhookEvent"', 'seq'), greatest(1, (SELECT max("seq") FROM "WebhookEvent")))`);
    await main.query(`DROP SCHEMA ${SCRATCH_SCHEMA} CASCADE`);

    // VACUUM before the indexes exist: one pass over each table sets its hint bits and
    // visibility map (index-only scans need it); the index builds then read clean pages.
    log('VACUUM:');
    const byName = (sql: (name: string) => string, table: string) => tables.map((t): Step => ({ name: `${table.toLowerCase()} ${t.name}`, table, sql: sql(t.name) }));
    timings.push(...(await runSteps(lanes, byName((name) => `VACUUM "${name}"`, 'VACUUM'), log)));

    log('Keys, indexes and foreign keys:');
    const tableBytes = new Map((await main.query<{ name: string; bytes: string }>(SHOP_TABLES_SQL)).rows.map((r) => [r.name, Number(r.bytes)]));
    timings.push(...(await runSteps(lanes, restoreSteps(objects, tableBytes, []), log)));
    assertSameObjects(objects, await readLoadObjects(main));

    log('ANALYZE:');
    timings.push(...(await runSteps(lanes, byName((name) => `ANALYZE "${name}"`, 'ANALYZE'), log)));
    await main.query(tables.map((t) => `ALTER TABLE "${t.name}" RESET (autovacuum_enabled);`).join('\n'));

    const seconds = (performance.now() - started) / 1000;
    return { sizes, accounts, timings, tables: byTable(timings), seconds };
  } finally {
    await Promise.allSettled(lanes.map((client) => client.end()));
  }
}

function fillSteps(sizes: Sizes, timeline: ReturnType<typeof timelineAt>): Step[] {
  return [...orderSteps(sizes, timeline), ...paymentSteps(sizes, timeline), ...ledgerSteps(sizes, timeline), ...activitySteps(sizes, timeline)];
}

function byTable(timings: Timing[]): TableTiming[] {
  const tables = new Map<string, TableTiming>();
  for (const t of timings) {
    const name = t.table ?? 'plan tables';
    const row = tables.get(name) ?? { table: name, rows: 0, seconds: 0 };
    row.rows += t.rows;
    row.seconds += t.ms / 1000;
    tables.set(name, row);
  }
  return [...tables.values()];
}

async function readAccounts(client: pg.Client): Promise<KnownAccounts> {
  const users = await client.query<{ id: string; email: string }>(`SELECT "id", "email" FROM "User" WHERE "email" = ANY($1)`, [Object.values(KNOWN_EMAILS)]);
  const account = (email: string): KnownAccount => {
    const row = users.rows.find((u) => u.email === email);
    if (!row) throw new Error(`The known account ${email} was not generated`);
    return { id: row.id, email };
  };
  const cashout = await client.query<{ id: string; createdAt: Date }>(
    `SELECT "id", "createdAt" FROM "CashoutRequest" WHERE "id" = uid('cashout', 1) AND "status" = 'REQUESTED'`,
  );
  const open = cashout.rows[0];
  if (!open) throw new Error('The known open cashout was not generated');
  return {
    password: KNOWN_PASSWORD,
    admin: account(KNOWN_EMAILS.admin),
    buyer: account(KNOWN_EMAILS.buyer),
    referrer: account(KNOWN_EMAILS.referrer),
    openCashout: { id: open.id, createdAt: open.createdAt.toISOString() },
  };
}

/** The per-table summary, as the CLI prints it. */
export function describeFill(result: FillResult): string {
  const lines = result.tables.map((t) => `  ${t.table.padEnd(18)} ${t.rows.toLocaleString('en-US').padStart(12)} rows ${t.seconds.toFixed(1).padStart(7)} s`);
  return [`Per table (seconds summed over the connections):`, ...lines, `Built in ${result.seconds.toFixed(1)} s`].join('\n');
}
