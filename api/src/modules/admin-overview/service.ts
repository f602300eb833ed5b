import { OPEN_CASHOUT_STATUSES, Prisma, relayGasSince, UserError, type Db } from '@shop/core';
import {
  addDays,
  OVERVIEW_DEFAULT_DAYS,
  OVERVIEW_MAX_DAYS,
  utcDay,
  WAITING_CAP,
  type AdminOverviewJson,
  type AdminWaitingJson,
  type OrderStatus,
  type OverviewDayJson,
} from '@shop/core/contract';

/**
 * The admin overview: what the shop took in, day by day, over a range of UTC days, what
 * the relay's gas for signed payments cost it, and the work waiting for an admin. Every figure is summed by Postgres over an index read
 * of the range (never the whole history): with 2M orders and 20M ledger entries a
 * month costs what a month holds, and a range is at most OVERVIEW_MAX_DAYS long.
 *
 * Revenue is the totalPrice of the orders PAID in the range, by the UTC day of their
 * paidAt (docs/decisions.md: "The admin overview").
 */

/** A range of whole UTC days: `from` and `to` included; `start` and `end` the instants that bound it ([start, end)). */
export type DayRange = { from: string; to: string; start: Date; end: Date; days: number };

const DAY_MS = 86_400_000;

const FIRST_DAY = '1970-01-01';
const LAST_DAY = '9999-12-30';

function dayParam(value: unknown, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new UserError(400, `${name} must be given once`);
  const text = value.trim();
  // The day must exist as written: 2026-02-30 is not read as 2 March.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`)) || utcDay(new Date(`${text}T00:00:00Z`)) !== text) {
    throw new UserError(400, `${name} must be a date (YYYY-MM-DD)`);
  }
  // The years the database's times hold, as the lists' date filters take them (paging.ts).
  if (text < FIRST_DAY || text > LAST_DAY) throw new UserError(400, `${name} must be a date from ${FIRST_DAY} to ${LAST_DAY}`);
  return text;
}

/**
 * The range a request asks for (`from`, `to`: YYYY-MM-DD, UTC), by default the last
 * OVERVIEW_DEFAULT_DAYS days up to `today`. Refused (400) when a day is not a date, `from`
 * is after `to`, or the range is longer than OVERVIEW_MAX_DAYS.
 */
export function dayRange(query: { from?: unknown; to?: unknown }, today: string = utcDay(new Date())): DayRange {
  const fromGiven = dayParam(query.from, 'from');
  const toGiven = dayParam(query.to, 'to');
  const to = toGiven ?? (fromGiven && fromGiven > today ? fromGiven : today);
  const from = fromGiven ?? addDays(to, -(OVERVIEW_DEFAULT_DAYS - 1));
  if (from > to) throw new UserError(400, `from (${from}) must not be after to (${to})`);
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${addDays(to, 1)}T00:00:00Z`);
  const days = Math.round((end.getTime() - start.getTime()) / DAY_MS);
  if (days > OVERVIEW_MAX_DAYS) {
    throw new UserError(400, `The range is ${days} days long: at most ${OVERVIEW_MAX_DAYS} days at a time`);
  }
  return { from, to, start, end, days };
}

/** A sum as the overview carries it: an exact decimal string, 2 decimals (none: 0.00). */
const exactUsd = (v: Prisma.Decimal | string | null | undefined) => new Prisma.Decimal(v ?? 0).toFixed(2);

/**
 * Revenue and paid orders per UTC day: one index-only scan of x_order_paid_at over the
 * range (the partial index holds PAID orders only, with their totalPrice; it is used only
 * when 'PAID' is written as a literal, hence SQL). Every day of the range is listed.
 */
export async function revenueByDay(db: Db, range: DayRange): Promise<OverviewDayJson[]> {
  const rows = await db.$queryRaw<{ day: string; paidOrders: number; revenue: string }[]>`
    SELECT to_char(("paidAt" AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS "day", count(*)::int AS "paidOrders", sum("totalPrice")::text AS "revenue"
    FROM "Order"
    WHERE "status" = 'PAID' AND "paidAt" >= ${range.start} AND "paidAt" < ${range.end}
    GROUP BY 1`;
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const days: OverviewDayJson[] = [];
  for (let i = 0; i < range.days; i++) {
    const day = addDays(range.from, i);
    const row = byDay.get(day);
    days.push({ day, revenue: exactUsd(row?.revenue), paidOrders: row?.paidOrders ?? 0 });
  }
  return days;
}

/**
 * Orders placed in the range by state: for each state a count read from
 * Order(status, createdAt, id) alone, rather than every order of the range read to
 * group them.
 */
async function ordersByStatus(db: Db, range: DayRange): Promise<{ status: OrderStatus; count: number }[]> {
  return db.$queryRaw<{ status: OrderStatus; count: number }[]>`
    SELECT s."status"::text AS "status",
      (SELECT count(*)::int FROM "Order" o WHERE o."status" = s."status" AND o."createdAt" >= ${range.start} AND o."createdAt" < ${range.end}) AS "count"
    FROM unnest(enum_range(NULL::"OrderStatus")) AS s("status")`;
}

/**
 * The packages that brought in most: the lines of the orders paid in the range. Each
 * paid order (x_order_paid_at) reads its own lines through OrderItem(orderId); the
 * `OFFSET 0` keeps that shape, so the planner never trades it for a read of every line
 * ever sold (a hash join over the whole OrderItem table) on a long range.
 */
async function topPackages(db: Db, range: DayRange): Promise<AdminOverviewJson['topPackages']> {
  const rows = await db.$queryRaw<{ productId: string; revenue: string; qty: number; orders: number }[]>`
    SELECT i."productId"::text AS "productId", sum(i."line")::text AS "revenue", sum(i."qty")::int AS "qty", count(*)::int AS "orders"
    FROM "Order" o
    CROSS JOIN LATERAL (
      SELECT it."productId", sum(it."price" * it."qty") AS "line", sum(it."qty") AS "qty"
      FROM "OrderItem" it WHERE it."orderId" = o."id" GROUP BY it."productId" OFFSET 0
    ) i
    WHERE o."status" = 'PAID' AND o."paidAt" >= ${range.start} AND o."paidAt" < ${range.end}
    GROUP BY i."productId"
    ORDER BY sum(i."line") DESC, i."productId"
    LIMIT 5`;
  const products = await db.product.findMany({ where: { id: { in: rows.map((r) => r.productId) } }, select: { id: true, name: true } });
  return rows.map((r) => ({
    productId: r.productId,
    name: products.find((p) => p.id === r.productId)?.name ?? 'Unknown package',
    revenue: exactUsd(r.revenue),
    qty: r.qty,
    orders: r.orders,
  }));
}

/** Referral rewards credited in the range minus those reversed (reversals are negative entries), from x_ledger_referral_created alone. */
async function referralRewards(db: Db, range: DayRange): Promise<string> {
  const [row] = await db.$queryRaw<{ total: string | null }[]>`
    SELECT sum("amount")::text AS "total" FROM "LedgerEntry"
    WHERE "kind" IN ('REFERRAL_REWARD', 'REFERRAL_REVERSAL') AND "createdAt" >= ${range.start} AND "createdAt" < ${range.end}`;
  return exactUsd(row?.total);
}

/** Open work, whatever the range: transfers waiting for an admin (x_payment_open_status_source) and cashouts to pay. */
async function needsAction(db: Db): Promise<AdminOverviewJson['needsAction']> {
  const [payments] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS "n" FROM "Payment" WHERE "status" IN ('UNRESOLVED', 'LATE')`;
  const cashouts = await db.cashoutRequest.aggregate({ where: { status: { in: [...OPEN_CASHOUT_STATUSES] } }, _count: { _all: true }, _sum: { amountUsd: true } });
  return { payments: payments?.n ?? 0, cashouts: cashouts._count._all, cashoutsUsd: exactUsd(cashouts._sum.amountUsd) };
}

/**
 * What waits for `adminId` (the Admin menu's counts): each a count of at most WAITING_CAP
 * rows read by an index led by `status` (Approval and CashoutRequest (status, createdAt, id)),
 * so the menu costs two small bounded reads however much waits.
 */
export async function waitingFor(db: Db, adminId: string): Promise<AdminWaitingJson> {
  const [approvals, cashouts] = await Promise.all([
    db.approval.count({
      where: { status: 'PENDING', requestedById: { not: adminId }, OR: [{ beneficiaryId: null }, { beneficiaryId: { not: adminId } }] },
      take: WAITING_CAP,
    }),
    db.cashoutRequest.count({ where: { status: { in: [...OPEN_CASHOUT_STATUSES] } }, take: WAITING_CAP }),
  ]);
  return { approvals, cashouts };
}

export async function overview(db: Db, range: DayRange): Promise<AdminOverviewJson> {
  const [days, states, top, referrals, open, newUsers, relayGas] = await Promise.all([
    revenueByDay(db, range),
    ordersByStatus(db, range),
    topPackages(db, range),
    referralRewards(db, range),
    needsAction(db),
    db.user.count({ where: { createdAt: { gte: range.start, lt: range.end } } }),
    // The relay's gas for signed payments, a cost of sale: PaymentAuthorization(createdAt), the range's rows only.
    relayGasSince(db, range.start, range.end),
  ]);
  const revenue = days.reduce((sum, d) => sum.plus(d.revenue), new Prisma.Decimal(0));
  return {
    from: range.from,
    to: range.to,
    days,
    totals: {
      revenue: revenue.toFixed(2),
      paidOrders: days.reduce((n, d) => n + d.paidOrders, 0),
      newUsers,
      referralRewards: referrals,
      relayGasUsd: relayGas.usd,
      relayGasWei: relayGas.wei.toString(),
      relayedPayments: relayGas.relayed,
    },
    ordersByStatus: states,
    needsAction: open,
    topPackages: top,
  };
}
