import type { PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import { checkChain, RECONCILE_BLOCK_WINDOW } from './chain-checks.ts';
import { checkDeposits } from './deposit-checks.ts';
import { checkAuditLog, checkInflowsTraced, checkPayoutHashes, checkTags } from './global-checks.ts';
import { checkBalances, checkCashouts, checkCountedComplete, checkOrders, checkPackages, checkRefunds, ORDER_UNCHECKED_KINDS, type Add } from './subjects.ts';

export { RECONCILE_BLOCK_WINDOW, STUCK_AFTER_MS } from './chain-checks.ts';
export { DEPOSIT_CHECKS } from './deposit-checks.ts';

/**
 * The reconciler proves the books: it checks the invariants every money path must keep
 * and reports each discrepancy with the ids to look at. It only reads.
 *
 * - balances: each user's balances equal the sums of their ledger entries;
 * - payments: each order's paid amount equals its counted transfers, a PAID order is
 *   covered by them, an order they cover is PAID, and each counted transfer is on the
 *   canonical chain at its recorded block (blocks within `blockWindow` of the head);
 * - rewards: no order's referral reward is posted more often than it was paid;
 * - cashouts: each request's ledger entries match its amount and state;
 * - money out: every PAID cashout and refund names the payout transaction the worker
 *   accepted, no transaction pays two payouts, a transfer's refund is its whole value and
 *   the transfer is REFUNDED, and an order's settled overpayment (refunds plus balance
 *   credits) equals what it records and never exceeds what it was overpaid; accepted
 *   payouts and refunded transfers are still on the canonical chain;
 * - stock: a package's count equals its movement log, and what each order holds equals
 *   what its movements took (stock + held by orders = what was stocked);
 * - tags: no tag held by two orders;
 * - inflows: no unexplained inflow in a block where a transfer through a contract was
 *   found by tracing later (the same ETH, recorded twice);
 * - stuck transfers: none mined with enough confirmations yet left uncounted (PENDING)
 *   for more than STUCK_AFTER_MS (a settlement that keeps failing);
 * - deposit addresses: each holds on chain what its unswept deposits add up to, and each
 *   confirmed sweep moved what it marked swept and is still on the chain
 *   (reconcile/deposit-checks.ts).
 *
 * Two scopes, the same rules (reconcile/subjects.ts checks a batch of ids of each kind):
 * - the audit (no `since`) walks every user, order, cashout, refund and package in keyset
 *   batches of `batchSize` ids, so its memory does not grow with the shop; it runs weekly
 *   and on demand as a worker job, and after every test that moves money;
 * - the scheduled run (`since`) checks only what changed since then: the subjects of
 *   ledger entries, stock movements, payments, payout checks and rows written or updated
 *   after `since` (indexed createdAt/updatedAt and the ledger's typed columns), so its
 *   cost follows the shop's recent work, not its history.
 */
export type Discrepancy = { check: string; message: string; ids: Record<string, string> };
export type ReconcileReport = {
  startedAt: Date;
  durationMs: number;
  discrepancies: Discrepancy[];
  checked: Record<string, number | string>;
  scope?: 'audit' | 'changes';
  since?: Date | null;
};

type Deps = { db: Db; chain: PublicClient; config: AppConfig };

/**
 * `chain: false` leaves out the checks that ask the node (a data set with no chain behind
 * it, such as the generated two-year shop); the books themselves are all checked.
 * `since`: check only what changed after it (the scheduled run); without it, everything.
 */
export type ReconcileOptions = {
  blockWindow?: number | 'all';
  chain?: boolean;
  since?: Date;
  batchSize?: number;
  /** With `since`: the previous report's discrepancies, checked again until they are gone. */
  recheck?: Discrepancy[];
  /** The audit log's last entry as the previous report saw it (`checked['audit head']`). */
  auditHead?: string;
};

/** The ids a discrepancy names, by the kind of subject that is checked again for it. */
const RECHECK_KEYS = { users: 'userId', orders: 'orderId', cashouts: 'cashoutId', refunds: 'refundId', packages: 'productId', payments: 'paymentId' } as const;

/** Checks whose scheduled run reads only what changed: an open discrepancy of theirs makes the next run read them whole. */
const GLOBAL_CHECKS = new Set(['inflow-also-traced', 'payout-hash-twice']);

/** At most this many discrepancies are kept in a report (the count of all is in `checked`). */
export const MAX_REPORTED = 1_000;

/**
 * The ids of a table in keyset batches (primary key order): the audit's walk. The sort
 * names the table's column: `ORDER BY "id"` would sort by the text output column of the
 * same name, which no index serves (a sort of the whole table per batch).
 */
export async function* allIds(db: Db, table: 'User' | 'Order' | 'CashoutRequest' | 'Refund' | 'Product', batchSize: number): AsyncGenerator<string[]> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT t."id"::text AS id FROM "${table}" t WHERE t."id" > $1::uuid ORDER BY t."id" LIMIT ${batchSize}`,
      after,
    );
    if (rows.length === 0) return;
    yield rows.map((r) => r.id);
    after = rows[rows.length - 1]!.id;
  }
}

async function* chunks(ids: Promise<string[]>, size: number): AsyncGenerator<string[]> {
  // In id order: each batch spans a range the checks' index scans start from.
  const all = (await ids).sort();
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}

const idsOf = async (db: Db, sql: Prisma.Sql): Promise<string[]> => (await db.$queryRaw<{ id: string }[]>(sql)).map((r) => r.id);

/**
 * What changed after `since`, by kind of subject: each read through an index on its time
 * column; plus the subjects the previous report named, so an open discrepancy is reported
 * again by every run until it is fixed.
 */
function changedIds(db: Db, since: Date, recheck: Discrepancy[]) {
  const ids = changedSince(db, since);
  return Object.fromEntries(
    Object.entries(ids).map(([kind, read]) => {
      const key = RECHECK_KEYS[kind as keyof typeof RECHECK_KEYS];
      const again = recheck.flatMap((d) => (d.ids[key] ? [d.ids[key]] : []));
      return [kind, async () => [...new Set([...(await read()), ...again])]];
    }),
  ) as typeof ids;
}

function changedSince(db: Db, since: Date) {
  return {
    users: () =>
      idsOf(db, Prisma.sql`
        SELECT DISTINCT "userId"::text AS id FROM "LedgerEntry" WHERE "createdAt" > ${since}
        UNION SELECT "id"::text FROM "User" WHERE "updatedAt" > ${since}`),
    orders: () =>
      idsOf(db, Prisma.sql`
        SELECT "id"::text AS id FROM "Order" WHERE "updatedAt" > ${since}
        UNION SELECT "orderId"::text FROM "Payment" WHERE "updatedAt" > ${since} AND "orderId" IS NOT NULL
        UNION SELECT "orderId"::text FROM "LedgerEntry" WHERE "createdAt" > ${since} AND "orderId" IS NOT NULL AND "kind" <> ALL(${ORDER_UNCHECKED_KINDS}::"LedgerKind"[])
        UNION SELECT "orderId"::text FROM "Refund" WHERE "updatedAt" > ${since} AND "orderId" IS NOT NULL
        UNION SELECT "orderId"::text FROM "StockMovement" WHERE "createdAt" > ${since} AND "orderId" IS NOT NULL`),
    cashouts: () =>
      idsOf(db, Prisma.sql`
        SELECT "id"::text AS id FROM "CashoutRequest" WHERE "updatedAt" > ${since}
        UNION SELECT "cashoutId"::text FROM "LedgerEntry" WHERE "createdAt" > ${since} AND "cashoutId" IS NOT NULL
        UNION SELECT "cashoutId"::text FROM "PayoutCheck" WHERE "updatedAt" > ${since} AND "cashoutId" IS NOT NULL`),
    refunds: () =>
      idsOf(db, Prisma.sql`
        SELECT "id"::text AS id FROM "Refund" WHERE "updatedAt" > ${since}
        UNION SELECT "refundId"::text FROM "PayoutCheck" WHERE "updatedAt" > ${since} AND "refundId" IS NOT NULL`),
    packages: () =>
      idsOf(db, Prisma.sql`
        SELECT "id"::text AS id FROM "Product" WHERE "updatedAt" > ${since}
        UNION SELECT "productId"::text FROM "StockMovement" WHERE "createdAt" > ${since}`),
    payments: () => idsOf(db, Prisma.sql`SELECT "id"::text AS id FROM "Payment" WHERE "updatedAt" > ${since} AND "status" = 'COUNTED'`),
  };
}

/** The subjects (users, orders, cashouts, refunds, packages): every one in the audit, the changed ones in the scheduled run. */
async function checkSubjects(db: Db, changed: ReturnType<typeof changedIds> | null, batchSize: number, add: Add, checked: Record<string, number | string>): Promise<void> {
  const subjects = [
    ['users', 'User', checkBalances, changed?.users],
    ['orders', 'Order', checkOrders, changed?.orders],
    ['cashouts', 'CashoutRequest', checkCashouts, changed?.cashouts],
    ['refunds', 'Refund', checkRefunds, changed?.refunds],
    ['packages', 'Product', checkPackages, changed?.packages],
  ] as const;
  for (const [name, table, check, changes] of subjects) {
    let n = 0;
    for await (const batch of changes ? chunks(changes(), batchSize) : allIds(db, table, batchSize)) {
      await check(db, batch, add);
      n += batch.length;
    }
    checked[name] = n;
  }
}

export async function reconcile(deps: Deps, opts: ReconcileOptions = {}): Promise<ReconcileReport> {
  const started = new Date();
  const t0 = performance.now();
  const { db } = deps;
  const batchSize = opts.batchSize ?? 2_000;
  const discrepancies: Discrepancy[] = [];
  const checked: Record<string, number | string> = {};
  let found = 0;
  const add: Add = (check, message, ids) => {
    found++;
    if (discrepancies.length < MAX_REPORTED) discrepancies.push({ check, message, ids });
  };

  const recheck = opts.recheck ?? [];
  // A discrepancy found by a global check is looked for across everything until it is gone.
  const since = opts.since;
  const scoped = since && !recheck.some((d) => GLOBAL_CHECKS.has(d.check)) ? since : undefined;
  const changed = since ? changedIds(db, since, recheck) : null;
  await checkSubjects(db, changed, batchSize, add, checked);

  // Counted transfers missing their order, block or value: in the audit one scan that
  // returns only the broken ones; in the scheduled run, the transfers changed since.
  if (changed) {
    await checkCountedComplete(db, await changed.payments(), add);
  } else {
    const strays = await db.payment.findMany({ where: { status: 'COUNTED', OR: [{ orderId: null }, { blockHash: null }, { usdValue: null }] }, select: { id: true } });
    await checkCountedComplete(db, strays.map((p) => p.id), add);
  }

  await checkChain(deps, opts, started, add, checked);
  await checkDeposits(deps, { since, recheck, batchSize, blockWindow: opts.blockWindow ?? RECONCILE_BLOCK_WINDOW, chain: opts.chain !== false }, add, checked);

  await checkInflowsTraced(db, scoped, add);
  await checkPayoutHashes(db, scoped, add);
  await checkTags(db, add);

  // A broken chain stays broken: while one is reported, every run walks the whole chain.
  const chainFrom = since && !recheck.some((d) => d.check === 'audit-chain') ? opts.auditHead : undefined;
  await checkAuditLog(db, chainFrom, opts.auditHead, add, checked);

  if (found > discrepancies.length) checked['discrepancies found'] = found;
  return { startedAt: started, durationMs: Math.round(performance.now() - t0), discrepancies, checked, scope: since ? 'changes' : 'audit', since: since ?? null };
}

/**
 * How far before the previous run's watermark the scheduled run looks. The watermark
 * covers every transaction of the shop's own role open when that run began, however long;
 * the overlap covers what it cannot see: another role's transaction (an operator's psql,
 * a migration), rows stamped by an application host whose clock runs behind the
 * database's, or stamped just before their transaction began. Minutes of overlap cost a
 * few rows read twice.
 */
export const CHANGES_OVERLAP_MS = 10 * 60_000;

/**
 * The oldest a watermark may make the next run look back (before the previous run's
 * start): one transaction left open for days (an idle psql session) must not make every
 * scheduled run read days of changes. What such a transaction wrote earlier is the
 * weekly audit's to find.
 */
export const WATERMARK_MAX_AGE_MS = 24 * 3600_000;

/**
 * Where the next scheduled run's changes begin: the start of the oldest transaction open in
 * this database now (a row it wrote is stamped at or after that start and may commit after
 * this run reads), less a millisecond (stamps keep milliseconds), or the database's clock
 * now when none began earlier: one clock, the database's, for both. Sessions of the shop's
 * own role are visible to it in pg_stat_activity (another role's: CHANGES_OVERLAP_MS).
 */
async function changesWatermark(db: Db): Promise<Date> {
  const [row] = await db.$queryRaw<{ watermark: Date }[]>`
    SELECT LEAST(clock_timestamp(), date_trunc('milliseconds', min("xact_start")) - interval '1 millisecond') AS watermark
    FROM pg_stat_activity
    WHERE "datname" = current_database() AND "backend_type" = 'client backend' AND "xact_start" IS NOT NULL AND "pid" <> pg_backend_pid()`;
  return row!.watermark;
}

/**
 * Runs the reconciler and keeps its report (the retention job keeps the latest RECONCILE_RUNS_KEPT). `scope: 'changes'`
 * checks what changed since the previous run's watermark (less CHANGES_OVERLAP_MS), and the
 * subjects of its discrepancies again; the first run of a shop is an audit.
 */
export async function runReconciliation(
  deps: Deps,
  opts: Omit<ReconcileOptions, 'since' | 'recheck'> & { scope?: 'audit' | 'changes'; /** How far before the previous run the changes are read (CHANGES_OVERLAP_MS). */ overlapMs?: number } = {},
): Promise<ReconcileReport> {
  const { overlapMs = CHANGES_OVERLAP_MS, ...options } = opts;
  // Read before anything else: what commits after this point is stamped after it.
  const watermark = await changesWatermark(deps.db);
  const latest = await deps.db.reconciliationRun.findFirst({ orderBy: { startedAt: 'desc' } });
  const previous = opts.scope === 'changes' ? latest : null;
  const auditHead = (latest?.checked as Record<string, unknown> | undefined)?.['audit head'];
  // Every report kept since that run began is checked again: with several workers, an
  // audit that began earlier may have finished after it (its findings must not drop out).
  const reports = previous
    ? await deps.db.reconciliationRun.findMany({ where: { createdAt: { gte: previous.startedAt } }, select: { discrepancies: true }, take: 50 })
    : [];
  const report = await reconcile(
    deps,
    previous
      ? {
          ...options,
          since: new Date(
            Math.max(Math.min(previous.startedAt.getTime(), (previous.watermark ?? previous.startedAt).getTime()), previous.startedAt.getTime() - WATERMARK_MAX_AGE_MS) - overlapMs,
          ),
          recheck: [previous, ...reports].flatMap((r) => r.discrepancies as unknown as Discrepancy[]),
          auditHead: typeof auditHead === 'string' ? auditHead : undefined,
        }
      : { ...options, auditHead: typeof auditHead === 'string' ? auditHead : undefined },
  );
  await deps.db.reconciliationRun.create({
    data: {
      startedAt: report.startedAt,
      durationMs: report.durationMs,
      discrepancies: report.discrepancies as unknown as Prisma.InputJsonValue,
      checked: report.checked as unknown as Prisma.InputJsonValue,
      scope: report.scope ?? 'audit',
      since: report.since ?? null,
      watermark,
    },
  });
  return report;
}

export async function latestReconciliation(db: Db): Promise<ReconcileReport | null> {
  const run = await db.reconciliationRun.findFirst({ orderBy: { createdAt: 'desc' } });
  if (!run) return null;
  return {
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    discrepancies: run.discrepancies as unknown as Discrepancy[],
    checked: run.checked as Record<string, number | string>,
    scope: run.scope === 'changes' ? 'changes' : 'audit',
    since: run.since,
  };
}

/**
 * Whether the latest report names `ids` in an open finding (its discrepancies hold one
 * with those ids), findings of the `except` checks aside: what waits for the books to agree
 * asks it. One row, by its index.
 */
export async function openFindingNames(db: Db, ids: Record<string, string>, except: string[] = []): Promise<boolean> {
  const [row] = await db.$queryRaw<{ named: boolean }[]>`
    SELECT COALESCE((SELECT EXISTS (SELECT 1 FROM jsonb_array_elements(r."discrepancies") d WHERE d @> ${JSON.stringify({ ids })}::jsonb AND NOT (d->>'check' = ANY(${except}::text[])))
      FROM "ReconciliationRun" r ORDER BY r."createdAt" DESC LIMIT 1), false) AS named`;
  return row?.named ?? false;
}

/** A report in words, for the console and test failures. */
export function describeReport(report: ReconcileReport): string {
  if (report.discrepancies.length === 0) return `The books reconcile (${Object.entries(report.checked).map(([k, v]) => `${k}: ${v}`).join(', ')}).`;
  return [
    `${report.discrepancies.length} discrepancies:`,
    ...report.discrepancies.map((d) => `- [${d.check}] ${d.message} (${Object.entries(d.ids).map(([k, v]) => `${k} ${v}`).join(', ')})`),
  ].join('\n');
}
