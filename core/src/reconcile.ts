import type { PublicClient } from 'viem';
import type { AppConfig } from './config.ts';
import { Prisma, type Db } from './db.ts';
import { indexerHalt } from './payments/indexer.ts';

/**
 * The reconciler proves the books: it checks the invariants every money path must keep
 * and reports each discrepancy with the ids to look at. It runs as a worker job every
 * few minutes, as `npm run reconcile`, on an admin's request, and after every test that
 * moves money. It only reads.
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
 *   for more than STUCK_AFTER_MS (a settlement that keeps failing).
 */
export type Discrepancy = { check: string; message: string; ids: Record<string, string> };
export type ReconcileReport = { startedAt: Date; durationMs: number; discrepancies: Discrepancy[]; checked: Record<string, number | string> };

type Deps = { db: Db; chain: PublicClient; config: AppConfig };

/** A confirmed transfer still PENDING this long after it was last looked at is stuck. */
export const STUCK_AFTER_MS = 10 * 60_000;

/** How many blocks back from the head counted transfers are checked against the chain (older ones are final). */
export const RECONCILE_BLOCK_WINDOW = 2_000;

const usd = (d: Prisma.Decimal | string | number) => `$${new Prisma.Decimal(d).toFixed(2)}`;

export async function reconcile(deps: Deps, opts: { blockWindow?: number | 'all' } = {}): Promise<ReconcileReport> {
  const started = new Date();
  const t0 = performance.now();
  const { db } = deps;
  const discrepancies: Discrepancy[] = [];
  const checked: Record<string, number | string> = {};
  const add = (check: string, message: string, ids: Record<string, string>) => discrepancies.push({ check, message, ids });

  // Balances against the ledger.
  const balances = await db.$queryRaw<{ id: string; active: Prisma.Decimal; passive: Prisma.Decimal; ledgerActive: Prisma.Decimal; ledgerPassive: Prisma.Decimal }[]>`
    SELECT u."id", u."activeBalance" AS active, u."passiveBalance" AS passive,
           COALESCE(SUM(l."amount") FILTER (WHERE l."account" = 'ACTIVE'), 0) AS "ledgerActive",
           COALESCE(SUM(l."amount") FILTER (WHERE l."account" = 'PASSIVE'), 0) AS "ledgerPassive"
    FROM "User" u LEFT JOIN "LedgerEntry" l ON l."userId" = u."id"
    GROUP BY u."id"`;
  checked.users = balances.length;
  for (const b of balances) {
    for (const [account, balance, ledger] of [['active', b.active, b.ledgerActive], ['passive', b.passive, b.ledgerPassive]] as const) {
      if (!new Prisma.Decimal(balance).eq(new Prisma.Decimal(ledger))) {
        add('balance-ledger', `The ${account} balance is ${usd(balance)} but its ledger sums to ${usd(ledger)}`, { userId: b.id });
      }
    }
  }

  // Orders against their counted transfers.
  const orders = await db.$queryRaw<{ id: string; status: string; totalPrice: Prisma.Decimal; paidUsd: Prisma.Decimal; counted: Prisma.Decimal; countedN: bigint }[]>`
    SELECT o."id", o."status"::text AS status, o."totalPrice", o."paidUsd",
           COALESCE(SUM(p."usdValue") FILTER (WHERE p."status" = 'COUNTED'), 0) AS counted,
           COUNT(p."id") FILTER (WHERE p."status" = 'COUNTED') AS "countedN"
    FROM "Order" o LEFT JOIN "Payment" p ON p."orderId" = o."id"
    GROUP BY o."id"`;
  checked.orders = orders.length;
  for (const o of orders) {
    const counted = new Prisma.Decimal(o.counted);
    if (!new Prisma.Decimal(o.paidUsd).eq(counted)) add('order-paid-sum', `The order records ${usd(o.paidUsd)} paid but its counted transfers add up to ${usd(counted)}`, { orderId: o.id });
    if (o.status === 'PAID' && counted.lt(o.totalPrice)) add('paid-not-covered', `The order is PAID but its counted transfers (${usd(counted)}) do not cover its total (${usd(o.totalPrice)})`, { orderId: o.id });
    if (['PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING'].includes(o.status) && Number(o.countedN) > 0 && counted.gte(o.totalPrice)) {
      add('covered-not-paid', `The order's counted transfers (${usd(counted)}) cover its total but it is ${o.status}`, { orderId: o.id });
    }
  }
  const strays = await db.payment.findMany({ where: { status: 'COUNTED', OR: [{ orderId: null }, { blockHash: null }, { usdValue: null }] }, select: { id: true, txHash: true } });
  for (const p of strays) add('counted-incomplete', 'A counted transfer has no order, block or value', { paymentId: p.id, txHash: p.txHash });

  // Counted transfers against the chain.
  const halt = await indexerHalt(db);
  if (halt) {
    checked.chain = `not checked: indexing is halted (${halt.reason})`;
  } else {
    // The window is counted back from the newest counted block, so a shop with no counted
    // transfer asks the node nothing.
    const window = opts.blockWindow ?? RECONCILE_BLOCK_WINDOW;
    const newest = (await db.payment.aggregate({ where: { status: 'COUNTED' }, _max: { blockNumber: true } }))._max.blockNumber;
    const since = newest === null || window === 'all' ? 0n : newest - BigInt(window);
    const counted =
      newest === null
        ? []
        : await db.payment.findMany({
            where: { status: 'COUNTED', blockNumber: { not: null, gte: since > 0n ? since : 0n } },
            select: { id: true, txHash: true, blockNumber: true, blockHash: true },
          });
    const head = counted.length ? await deps.chain.getBlockNumber({ cacheTime: 0 }) : 0n;
    const hashes = new Map<bigint, string | null>();
    for (const n of new Set(counted.map((p) => p.blockNumber as bigint))) {
      hashes.set(n, n > head ? null : ((await deps.chain.getBlock({ blockNumber: n }).catch(() => null))?.hash ?? null));
    }
    for (const p of counted) {
      const onChain = hashes.get(p.blockNumber as bigint);
      if (onChain !== p.blockHash) {
        add('counted-off-chain', `A counted transfer's block ${p.blockNumber} is ${onChain ? `now ${onChain}` : 'not on the chain'}, not ${p.blockHash}`, { paymentId: p.id, txHash: p.txHash });
      }
    }
    checked['transfers on chain'] = counted.length;

    // Money out against the chain: an accepted payout, and a refunded transfer, whose block
    // left the chain (the request would be PAID with nothing sent, the refund owed for ETH
    // that never arrived).
    const anyOut = (await db.payoutCheck.count({ where: { status: 'ACCEPTED', blockNumber: { not: null } }, take: 1 })) + (await db.payment.count({ where: { status: 'REFUNDED', blockNumber: { not: null }, source: { not: 'INFLOW' } }, take: 1 }));
    // Asks the node only when there is something to check.
    const outHead = anyOut > 0 ? await deps.chain.getBlockNumber({ cacheTime: 0 }) : 0n;
    const outSince = window === 'all' ? 0n : outHead - BigInt(window);
    const outWindow = { not: null, gte: outSince > 0n ? outSince : 0n };
    const [payouts, refunded] =
      anyOut === 0
        ? [[], []]
        : await Promise.all([
            db.payoutCheck.findMany({ where: { status: 'ACCEPTED', blockNumber: outWindow }, select: { id: true, txHash: true, blockNumber: true, blockHash: true, cashoutId: true, refundId: true } }),
            db.payment.findMany({ where: { status: 'REFUNDED', blockNumber: outWindow, source: { not: 'INFLOW' } }, select: { id: true, txHash: true, blockNumber: true, blockHash: true } }),
          ]);
    for (const n of new Set([...payouts, ...refunded].map((p) => p.blockNumber as bigint))) {
      if (!hashes.has(n)) hashes.set(n, n > outHead ? null : ((await deps.chain.getBlock({ blockNumber: n }).catch(() => null))?.hash ?? null));
    }
    for (const k of payouts) {
      const onChain = hashes.get(k.blockNumber as bigint);
      if (onChain !== k.blockHash) {
        add('payout-off-chain', `A verified payout's block ${k.blockNumber} is ${onChain ? `now ${onChain}` : 'not on the chain'}: the ${k.cashoutId ? 'cashout' : 'refund'} is PAID with nothing sent`, {
          ...(k.cashoutId ? { cashoutId: k.cashoutId } : { refundId: k.refundId as string }),
          txHash: k.txHash,
        });
      }
    }
    for (const p of refunded) {
      const onChain = hashes.get(p.blockNumber as bigint);
      if (p.blockHash && onChain !== p.blockHash) {
        add('refunded-off-chain', `A refunded transfer's block ${p.blockNumber} is ${onChain ? `now ${onChain}` : 'not on the chain'}: its refund gives back ETH that did not arrive`, { paymentId: p.id, txHash: p.txHash });
      }
    }
    checked['payouts on chain'] = payouts.length;
  }

  // The same ETH twice: an inflow recorded for a block while it could not be traced, and a
  // transfer through a contract in that block found by tracing later (a node that gained
  // tracing, workers on differently able nodes). An admin must not refund the inflow too.
  const doubled = await db.$queryRaw<{ inflowId: string; paymentId: string; blockNumber: bigint }[]>`
    SELECT i."id" AS "inflowId", p."id" AS "paymentId", i."blockNumber"
    FROM "Payment" i JOIN "Payment" p ON p."blockHash" = i."blockHash" AND p."source" <> 'INFLOW' AND p."viaContract"
    WHERE i."source" = 'INFLOW' AND i."status" IN ('UNRESOLVED', 'REFUNDED') AND p."status" IN ('COUNTED', 'UNRESOLVED', 'LATE')
      AND p."explainsInflowOf" IS DISTINCT FROM i."blockHash"`;
  for (const d of doubled) {
    add('inflow-also-traced', `Block ${d.blockNumber}'s unexplained inflow may be the transfer later found through a contract in it: settle one of them, not both`, {
      inflowId: d.inflowId,
      paymentId: d.paymentId,
    });
  }

  // Transfers confirmed on chain that nothing has settled.
  const waiting = await db.payment.findMany({
    where: { status: 'PENDING', blockNumber: { not: null }, updatedAt: { lt: new Date(started.getTime() - STUCK_AFTER_MS) } },
    select: { id: true, txHash: true, blockNumber: true, updatedAt: true },
  });
  if (waiting.length > 0 && !halt) {
    const head = await deps.chain.getBlockNumber({ cacheTime: 0 });
    for (const p of waiting) {
      const confirmations = Number(head - (p.blockNumber as bigint) + 1n);
      if (confirmations >= deps.config.paymentConfirmations) {
        add('payment-stuck', `A transfer with ${confirmations} confirmations has been waiting since ${p.updatedAt.toISOString()} without being settled`, { paymentId: p.id, txHash: p.txHash });
      }
    }
  }

  // Referral rewards: posted at most once per paid state.
  const rewards = await db.$queryRaw<{ orderId: string; status: string; rewards: bigint; reversals: bigint }[]>`
    SELECT o."id" AS "orderId", o."status"::text AS status,
           COUNT(l."id") FILTER (WHERE l."kind" = 'REFERRAL_REWARD' AND l."amount" > 0) AS rewards,
           COUNT(l."id") FILTER (WHERE l."kind" = 'REFERRAL_REVERSAL' OR (l."kind" = 'REFERRAL_REWARD' AND l."amount" < 0)) AS reversals
    FROM "Order" o JOIN "LedgerEntry" l ON l."reference" LIKE 'order:' || o."id"::text || '%'
    WHERE l."kind" IN ('REFERRAL_REWARD', 'REFERRAL_REVERSAL')
    GROUP BY o."id"`;
  for (const r of rewards) {
    const net = Number(r.rewards) - Number(r.reversals);
    if (net < 0 || net > 1 || (r.status !== 'PAID' && net !== 0)) {
      add('referral-reward', `The order's referral reward was posted ${r.rewards} time(s) and reversed ${r.reversals} time(s) while it is ${r.status}`, { orderId: r.orderId });
    }
  }

  // Cashouts against the ledger.
  const cashouts = await db.$queryRaw<{ id: string; status: string; amountUsd: Prisma.Decimal; ledger: Prisma.Decimal }[]>`
    SELECT c."id", c."status"::text AS status, c."amountUsd",
           COALESCE((SELECT SUM(l."amount") FROM "LedgerEntry" l WHERE l."kind" = 'CASHOUT' AND l."reference" IN ('cashout:' || c."id"::text, 'cashout:' || c."id"::text || ':rejected')), 0) AS ledger
    FROM "CashoutRequest" c`;
  checked.cashouts = cashouts.length;
  for (const c of cashouts) {
    const expected = c.status === 'REJECTED' ? new Prisma.Decimal(0) : new Prisma.Decimal(c.amountUsd).negated();
    if (!new Prisma.Decimal(c.ledger).eq(expected)) {
      add('cashout-ledger', `The cashout of ${usd(c.amountUsd)} (${c.status}) has ledger entries summing to ${usd(c.ledger)}`, { cashoutId: c.id });
    }
  }

  // Money out: payouts verified, each hash once, refunds worth what arrived.
  const unverified = await db.$queryRaw<{ kind: string; id: string }[]>`
    SELECT 'cashout' AS kind, c."id"::text AS id FROM "CashoutRequest" c
    WHERE c."status" = 'PAID' AND NOT EXISTS (SELECT 1 FROM "PayoutCheck" k WHERE k."cashoutId" = c."id" AND k."status" = 'ACCEPTED' AND lower(k."txHash") = lower(c."payoutTxHash"))
    UNION ALL
    SELECT 'refund', r."id"::text FROM "Refund" r
    WHERE r."status" = 'PAID' AND NOT EXISTS (SELECT 1 FROM "PayoutCheck" k WHERE k."refundId" = r."id" AND k."status" = 'ACCEPTED' AND lower(k."txHash") = lower(r."payoutTxHash"))`;
  for (const u of unverified) add('payout-unverified', `The ${u.kind} is PAID without a payout transaction the worker accepted`, { [`${u.kind}Id`]: u.id });
  const reused = await db.$queryRaw<{ txHash: string; n: bigint }[]>`
    SELECT lower("txHash") AS "txHash", COUNT(*) AS n FROM "PayoutCheck" WHERE "status" = 'ACCEPTED' GROUP BY lower("txHash") HAVING COUNT(*) > 1`;
  for (const r of reused) add('payout-hash-twice', `One transaction was accepted for ${r.n} payouts`, { txHash: r.txHash });
  const refunds = await db.$queryRaw<{ id: string; amountWei: Prisma.Decimal; valueWei: Prisma.Decimal | null; status: string | null }[]>`
    SELECT r."id", r."amountWei", p."valueWei", p."status"::text AS status
    FROM "Refund" r LEFT JOIN "Payment" p ON p."id" = r."paymentId" WHERE r."source" = 'TRANSFER'`;
  checked.refunds = refunds.length;
  for (const r of refunds) {
    if (r.status !== 'REFUNDED' || r.valueWei === null || !new Prisma.Decimal(r.valueWei).eq(r.amountWei)) {
      add('refund-transfer', `A refund of ${new Prisma.Decimal(r.amountWei).toFixed(0)} wei does not match its transfer (${r.status ?? 'missing'}, ${r.valueWei === null ? '?' : new Prisma.Decimal(r.valueWei).toFixed(0)} wei)`, { refundId: r.id });
    }
  }
  const overpaid = await db.$queryRaw<
    { id: string; overpaidUsd: Prisma.Decimal; settled: Prisma.Decimal; settledWei: Prisma.Decimal; creditedUsd: Prisma.Decimal; creditedWei: Prisma.Decimal; refunded: Prisma.Decimal; refundedWei: Prisma.Decimal; credited: Prisma.Decimal }[]
  >`
    SELECT o."id", o."overpaidUsd", o."overpaidSettledUsd" AS settled, o."overpaidSettledWei" AS "settledWei",
           o."overpaidCreditedUsd" AS "creditedUsd", o."overpaidCreditedWei" AS "creditedWei",
           COALESCE(r.usd, 0) AS refunded, COALESCE(r.wei, 0) AS "refundedWei",
           COALESCE((SELECT SUM(l."amount") FROM "LedgerEntry" l WHERE l."kind" = 'OVERPAYMENT_CREDIT' AND l."reference" = 'order:' || o."id"::text), 0) AS credited
    FROM "Order" o
    LEFT JOIN LATERAL (SELECT SUM(r."amountUsd") AS usd, SUM(r."amountWei") AS wei FROM "Refund" r WHERE r."orderId" = o."id" AND r."source" = 'OVERPAYMENT') r ON true
    WHERE o."overpaidSettledWei" > 0 OR o."overpaidSettledUsd" > 0
       OR EXISTS (SELECT 1 FROM "Refund" r WHERE r."orderId" = o."id" AND r."source" = 'OVERPAYMENT')`;
  for (const o of overpaid) {
    const settled = new Prisma.Decimal(o.settled);
    const parts = new Prisma.Decimal(o.refunded).plus(o.creditedUsd);
    const weiParts = new Prisma.Decimal(o.refundedWei).plus(o.creditedWei);
    if (!settled.eq(parts)) add('overpayment-settled', `The order records ${usd(settled)} of overpayment settled but its refunds and credits add up to ${usd(parts)}`, { orderId: o.id });
    if (!new Prisma.Decimal(o.settledWei).eq(weiParts)) {
      add('overpayment-settled', `The order records ${new Prisma.Decimal(o.settledWei).toFixed(0)} wei of overpayment settled but its refunds and credits add up to ${weiParts.toFixed(0)} wei`, { orderId: o.id });
    }
    // A credit is worth at most what it settled (the lower of that and its ETH's value when credited).
    if (new Prisma.Decimal(o.credited).gt(o.creditedUsd)) {
      add('overpayment-settled', `The order's overpayment credits add up to ${usd(o.credited)}, more than the ${usd(o.creditedUsd)} of overpayment they settled`, { orderId: o.id });
    }
    if (settled.gt(o.overpaidUsd)) add('overpayment-settled', `The order settled ${usd(settled)} of overpayment but was overpaid ${usd(o.overpaidUsd)} (a payment left the chain after it was refunded or credited)`, { orderId: o.id });
  }

  // Stock: the log, and what orders hold.
  const stock = await db.$queryRaw<{ id: string; countInStock: number; logged: bigint | null }[]>`
    SELECT p."id", p."countInStock", (SELECT SUM(m."delta") FROM "StockMovement" m WHERE m."productId" = p."id") AS logged FROM "Product" p`;
  checked.packages = stock.length;
  for (const p of stock) {
    if (Number(p.logged ?? 0) !== p.countInStock) {
      add('stock-log', `The package has ${p.countInStock} in stock but its movements add up to ${p.logged ?? 0}`, { productId: p.id });
    }
  }
  const held = await db.$queryRaw<{ orderId: string; productId: string; qty: number; stockReserved: boolean; net: bigint }[]>`
    SELECT i."orderId", i."productId", i."qty", o."stockReserved",
           COALESCE((SELECT SUM(m."delta") FROM "StockMovement" m WHERE m."orderId" = i."orderId" AND m."productId" = i."productId"), 0) AS net
    FROM "OrderItem" i JOIN "Order" o ON o."id" = i."orderId"`;
  checked['order lines'] = held.length;
  for (const h of held) {
    const expected = h.stockReserved ? -h.qty : 0;
    if (Number(h.net) !== expected) {
      add('stock-held', `The order ${h.stockReserved ? `holds ${h.qty}` : 'holds none'} of the package but its movements took ${-Number(h.net)}`, { orderId: h.orderId, productId: h.productId });
    }
  }

  // Tags.
  const tags = await db.$queryRaw<{ tag: number; ids: string[] }[]>`
    SELECT "paymentTag" AS tag, array_agg("id"::text) AS ids FROM "Order" WHERE "paymentTag" IS NOT NULL GROUP BY "paymentTag" HAVING COUNT(*) > 1`;
  for (const t of tags) add('tag-twice', `Tag ${t.tag} is held by ${t.ids.length} orders`, { orderIds: t.ids.join(',') });

  return { startedAt: started, durationMs: Math.round(performance.now() - t0), discrepancies, checked };
}

/** Runs the reconciler and keeps its report (the latest 200 are kept). */
export async function runReconciliation(deps: Deps, opts: { blockWindow?: number | 'all' } = {}): Promise<ReconcileReport> {
  const report = await reconcile(deps, opts);
  await deps.db.reconciliationRun.create({
    data: {
      startedAt: report.startedAt,
      durationMs: report.durationMs,
      discrepancies: report.discrepancies as unknown as Prisma.InputJsonValue,
      checked: report.checked as unknown as Prisma.InputJsonValue,
    },
  });
  const old = await deps.db.reconciliationRun.findMany({ orderBy: { createdAt: 'desc' }, skip: 200, select: { id: true } });
  if (old.length) await deps.db.reconciliationRun.deleteMany({ where: { id: { in: old.map((r) => r.id) } } });
  return report;
}

export async function latestReconciliation(db: Db): Promise<ReconcileReport | null> {
  const run = await db.reconciliationRun.findFirst({ orderBy: { createdAt: 'desc' } });
  if (!run) return null;
  return { startedAt: run.startedAt, durationMs: run.durationMs, discrepancies: run.discrepancies as unknown as Discrepancy[], checked: run.checked as Record<string, number | string> };
}

/** A report in words, for the console and test failures. */
export function describeReport(report: ReconcileReport): string {
  if (report.discrepancies.length === 0) return `The books reconcile (${Object.entries(report.checked).map(([k, v]) => `${k}: ${v}`).join(', ')}).`;
  return [
    `${report.discrepancies.length} discrepancies:`,
    ...report.discrepancies.map((d) => `- [${d.check}] ${d.message} (${Object.entries(d.ids).map(([k, v]) => `${k} ${v}`).join(', ')})`),
  ].join('\n');
}
