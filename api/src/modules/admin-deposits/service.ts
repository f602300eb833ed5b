import { Prisma, weiToUsdCents, type Db, type DepositSweep } from '@shop/core';
import { centsToString, formatAsset, formatEth, type DepositFactoryJson, type DepositSweepJson, type DepositsSummaryJson, type SweepPeriodJson } from '@shop/core/contract';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';

/**
 * The deposit addresses' figures (the admin's Payments page and /metrics). Each read is
 * bounded by open work or by time, whatever the shop's history: unswept deposits through
 * the partial index x_payment_unswept_deposit (swept ones are never read), sweeps of the
 * last 30 days through DepositSweep(createdAt), waiting ones through
 * DepositSweep(status, createdAt).
 */

const DAY_MS = 24 * 3600_000;

const weiOf = (d: Prisma.Decimal | null | undefined): bigint => BigInt((d ?? new Prisma.Decimal(0)).toFixed(0));
const amount = (wei: bigint) => ({ wei: wei.toString(), eth: formatEth(wei) });

/** ETH deposits not yet swept: what of them is still at the addresses (less what a flush in a deposit's own transaction moved early), and how many addresses. */
export async function unsweptDeposits(db: Db): Promise<{ wei: bigint; addresses: number }> {
  const [row] = await db.$queryRaw<{ wei: Prisma.Decimal | null; addresses: number }[]>`
    SELECT SUM("amount" - "flushedEarly") AS wei, COUNT(DISTINCT "depositAddress")::int AS addresses FROM "Payment"
    WHERE "depositAddress" IS NOT NULL AND "asset" = 'ETH' AND "sweepId" IS NULL AND "status" <> 'REJECTED'`;
  return { wei: weiOf(row?.wei), addresses: row?.addresses ?? 0 };
}

/** Sweeps sent and not yet settled either way. */
export const sweepsWaiting = (db: Db): Promise<number> => db.depositSweep.count({ where: { status: 'SENT' } });

/** The gas of the sweeps sent in the last `ms` (confirmed and reverted ones: both paid it). */
export async function sweepGasSince(db: Db, ms: number, now = new Date()): Promise<bigint> {
  const row = await db.depositSweep.aggregate({ where: { createdAt: { gt: new Date(now.getTime() - ms) } }, _sum: { feeWei: true } });
  return weiOf(row._sum.feeWei);
}

type PeriodRow = { sweeps: number; swept: Prisma.Decimal | null; gas: Prisma.Decimal | null };

/** The sweeps sent in the last 24 hours and 30 days: how many, what the confirmed ones moved, what their gas cost. */
async function sweepPeriods(db: Db, now: Date): Promise<{ last24h: SweepPeriodJson; last30d: SweepPeriodJson }> {
  const day = new Date(now.getTime() - DAY_MS);
  const month = new Date(now.getTime() - 30 * DAY_MS);
  const [row] = await db.$queryRaw<(PeriodRow & { sweeps24h: number; swept24h: Prisma.Decimal | null; gas24h: Prisma.Decimal | null })[]>`
    SELECT COUNT(*)::int AS sweeps, SUM("sweptWei") FILTER (WHERE "status" = 'CONFIRMED') AS swept, SUM("feeWei") AS gas,
           (COUNT(*) FILTER (WHERE "createdAt" > ${day}))::int AS "sweeps24h",
           SUM("sweptWei") FILTER (WHERE "status" = 'CONFIRMED' AND "createdAt" > ${day}) AS "swept24h",
           SUM("feeWei") FILTER (WHERE "createdAt" > ${day}) AS "gas24h"
    FROM "DepositSweep" WHERE "createdAt" > ${month}`;
  const period = (sweeps: number, swept: Prisma.Decimal | null, gas: Prisma.Decimal | null): SweepPeriodJson => ({ sweeps, swept: amount(weiOf(swept)), gas: amount(weiOf(gas)) });
  return {
    last24h: period(row?.sweeps24h ?? 0, row?.swept24h ?? null, row?.gas24h ?? null),
    last30d: period(row?.sweeps ?? 0, row?.swept ?? null, row?.gas ?? null),
  };
}

/** The summary; `answer` is the current ETH price (8 decimals), null while none can be read; `factory`, this process's verdict on the factory. */
export async function depositsSummary(
  db: Db,
  answer: bigint | null,
  sweeper: DepositsSummaryJson['sweeper'],
  factory: DepositFactoryJson,
  now = new Date(),
): Promise<DepositsSummaryJson> {
  const [unswept, periods, waiting] = await Promise.all([unsweptDeposits(db), sweepPeriods(db, now), sweepsWaiting(db)]);
  return {
    unswept: { ...amount(unswept.wei), usd: answer === null ? null : Number(centsToString(weiToUsdCents(unswept.wei, answer))), addresses: unswept.addresses },
    ...periods,
    sweepsWaiting: waiting,
    sweeper,
    factory,
  };
}

/** One page of sweeps, newest first (DepositSweep(createdAt), the id breaking ties). */
export function sweepsPage(db: Db, page: PageQuery): Promise<DepositSweep[]> {
  return db.depositSweep.findMany({
    where: keysetWhere('createdAt', 'desc', page.after) as Prisma.DepositSweepWhereInput,
    orderBy: keysetOrder('createdAt', 'desc') as Prisma.DepositSweepOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

/**
 * The page's sweeps as JSON, their addresses counted through DepositSweepItem(sweepId) for
 * the page alone (Prisma's `_count` grouped every item of every sweep to join the page).
 */
export async function sweepsJson(db: Db, sweeps: DepositSweep[]): Promise<DepositSweepJson[]> {
  const counts = sweeps.length
    ? await db.depositSweepItem.groupBy({
        by: ['sweepId', 'asset'],
        where: { sweepId: { in: sweeps.map((s) => s.id) } },
        _count: { _all: true },
        _sum: { expectedAmount: true, sweptAmount: true },
      })
    : [];
  const items = new Map<string, number>();
  for (const c of counts) items.set(c.sweepId, (items.get(c.sweepId) ?? 0) + c._count._all);
  // A token sweep's amounts, per token: what moved once confirmed, else what the addresses held.
  const tokensOf = (s: DepositSweep) =>
    s.kind === 'TOKENS'
      ? counts
          .filter((c) => c.sweepId === s.id && c.asset !== 'ETH')
          .map((c) => formatAsset(c.asset, ((s.status === 'CONFIRMED' ? c._sum.sweptAmount : null) ?? c._sum.expectedAmount ?? new Prisma.Decimal(0)).toFixed(0)))
          .join(', ')
      : null;
  return sweeps.map((s) => ({
    _id: s.id,
    txHash: s.txHash,
    status: s.status,
    items: items.get(s.id) ?? 0,
    kind: s.kind,
    tokens: tokensOf(s),
    expectedWei: s.expectedWei.toFixed(0),
    sweptWei: s.sweptWei?.toFixed(0) ?? null,
    feeWei: s.feeWei?.toFixed(0) ?? null,
    blockNumber: s.blockNumber?.toString() ?? null,
    reason: s.reason,
    createdAt: s.createdAt.toISOString(),
  }));
}
