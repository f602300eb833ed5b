import { assignRefusal, conflict, dueCents, notFound, OPEN_STATUSES, Prisma, type Db, type OrderStatus, type Payment, type PaymentStatus } from '@shop/core';
import { centsToString, idParam, orderReference, usdNumber, type AdminPaymentJson, type AssignableOrderJson } from '@shop/core/contract';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';
import { ordersWithReference } from '../orders/order-lookup.ts';

/**
 * One page of transfers in the given states, newest first: one read per state through
 * Payment(status, createdAt, id), merged. A `status IN (...)` list cannot be read from
 * that index in createdAt order, and the planner read every transfer in those states
 * (600,000 waiting for an admin in the two-year shop) to sort them for each page.
 */
export async function paymentsPage(db: Db, statuses: PaymentStatus[], page: PageQuery) {
  // One snapshot for all of them: a transfer that moves from one state to another between
  // two reads would otherwise be shown twice or not at all.
  const pages = await db.$transaction(
    [...new Set(statuses)].map((status) =>
      db.payment.findMany({
        where: { status, ...(keysetWhere('createdAt', 'desc', page.after) as Prisma.PaymentWhereInput) },
        orderBy: keysetOrder('createdAt', 'desc') as Prisma.PaymentOrderByWithRelationInput[],
        take: page.limit + 1,
      }),
    ),
    { isolationLevel: 'RepeatableRead' },
  );
  const newestFirst = (a: Payment, b: Payment) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
  return pages.flat().sort(newestFirst).slice(0, page.limit + 1);
}

export async function listPayments(db: Db, rows: Awaited<ReturnType<typeof paymentsPage>>): Promise<AdminPaymentJson[]> {
  const refunds = await db.refund.findMany({ where: { source: 'TRANSFER', paymentId: { in: rows.map((p) => p.id) } } });
  return rows.map((p): AdminPaymentJson => ({
    _id: p.id,
    txHash: p.txHash,
    status: p.status,
    source: p.source,
    order: p.orderId,
    from: p.fromAddress,
    valueWei: p.asset === 'ETH' ? (p.amount?.toFixed(0) ?? null) : null,
    asset: p.asset,
    amount: p.amount?.toFixed(0) ?? null,
    usdValue: p.usdValue ? Number(p.usdValue.toFixed(2)) : null,
    blockNumber: p.blockNumber?.toString() ?? null,
    reason: p.reason,
    refund: ((r) => (r ? { _id: r.id, status: r.status, wallet: r.wallet, payoutTxHash: r.payoutTxHash } : null))(refunds.find((r) => r.paymentId === p.id)),
    createdAt: p.createdAt.toISOString(),
  }));
}

/** At most this many orders are offered, and this many buyers searched, for one assignment. */
export const ASSIGNABLE_MAX = 20;
const BUYERS_MAX = 10;
/** Reports of one transfer read (the api caps the hashes waiting per order; a transfer is rarely reported more than once). */
const REPORTS_MAX = 20;

type OpenOrderRow = {
  id: string; status: OrderStatus; createdAt: Date; paymentDeadline: Date | null; totalPrice: Prisma.Decimal; paidUsd: Prisma.Decimal;
  buyerId: string; name: string; email: string;
};

/**
 * The open orders a transfer can be assigned to (OPEN_STATUSES: not paid, cancelled or
 * deleted), newest first, at most ASSIGNABLE_MAX: those `q` names (an order's reference,
 * the prefix optional, or its id; else the buyers whose e-mail or name holds it), or with
 * no `q` the orders the transfer was reported for and their buyers' open orders. Only
 * orders placed before the transfer was seen: settlement refuses a transfer mined before
 * its order (and the placement block, when known, is checked too).
 *
 * Each buyer's orders are read from the partial index x_order_open_by_buyer (userId,
 * createdAt, id WHERE status is open), newest first from the transfer's time, at most
 * ASSIGNABLE_MAX a buyer: a buyer with 10,000 paid orders costs as little as a new one.
 */
export async function assignableOrders(db: Db, paymentId: string, q: string | undefined): Promise<AssignableOrderJson[]> {
  const payment = await db.payment.findUnique({ where: { id: paymentId }, select: { status: true, source: true, createdAt: true, blockNumber: true } });
  if (!payment) throw notFound('Payment not found');
  const refusal = assignRefusal(payment);
  if (refusal) throw conflict(refusal);

  const reports = await db.paymentReport.findMany({ where: { paymentId }, select: { orderId: true, userId: true }, orderBy: { createdAt: 'asc' }, take: REPORTS_MAX });
  const reported = new Set(reports.map((r) => r.orderId));
  let orderIds: string[] = [];
  let buyerIds: string[] = [];
  if (!q) {
    orderIds = [...reported];
    buyerIds = [...new Set(reports.map((r) => r.userId))].slice(0, BUYERS_MAX);
  } else if (idParam.safeParse(q).success) {
    orderIds = [q.toLowerCase()];
  } else {
    orderIds = await ordersWithReference(db, q, { bare: true });
    if (orderIds.length === 0) {
      const buyers = await db.user.findMany({
        where: { OR: [{ email: { contains: q, mode: 'insensitive' } }, { name: { contains: q, mode: 'insensitive' } }] },
        select: { id: true },
        take: BUYERS_MAX,
      });
      buyerIds = buyers.map((b) => b.id);
    }
  }

  const open = Prisma.raw(OPEN_STATUSES.map((s) => `'${s}'`).join(', '));
  const block = payment.blockNumber;
  const placedBefore = block === null ? Prisma.sql`TRUE` : Prisma.sql`(o."placedAtBlock" IS NULL OR o."placedAtBlock" < ${block})`;
  const columns = Prisma.sql`o."id", o."status", o."createdAt", o."paymentDeadline", o."totalPrice", o."paidUsd", u."id" AS "buyerId", u."name", u."email"`;
  const [named, byBuyer] = await Promise.all([
    orderIds.length === 0
      ? []
      : db.$queryRaw<OpenOrderRow[]>`
          SELECT ${columns} FROM "Order" o JOIN "User" u ON u."id" = o."userId"
          WHERE o."id" = ANY(${orderIds}::uuid[]) AND o."status" IN (${open}) AND o."createdAt" <= ${payment.createdAt} AND ${placedBefore}`,
    buyerIds.length === 0
      ? []
      : db.$queryRaw<OpenOrderRow[]>`
          SELECT ${columns} FROM unnest(${buyerIds}::uuid[]) AS b("id")
          CROSS JOIN LATERAL (
            SELECT * FROM "Order" o
            WHERE o."userId" = b."id" AND o."status" IN (${open}) AND o."createdAt" <= ${payment.createdAt}
            ORDER BY o."createdAt" DESC, o."id" DESC LIMIT ${ASSIGNABLE_MAX}
          ) o
          JOIN "User" u ON u."id" = o."userId"
          WHERE ${placedBefore}`,
  ]);
  const newestFirst = (a: OpenOrderRow, b: OpenOrderRow) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
  // What the admin named (or the transfer was reported for) first, then the buyers' other open orders.
  const seen = new Set<string>();
  const rows = [...[...named].sort(newestFirst), ...[...byBuyer].sort(newestFirst)].filter((o) => !seen.has(o.id) && seen.add(o.id));
  return rows.slice(0, ASSIGNABLE_MAX).map((o) => ({
    _id: o.id,
    reference: orderReference(o.id),
    status: o.status,
    createdAt: o.createdAt.toISOString(),
    paymentDeadline: o.paymentDeadline?.toISOString() ?? null,
    totalPrice: usdNumber(o.totalPrice),
    dueUsd: Number(centsToString(dueCents(o))),
    reported: reported.has(o.id),
    buyer: { _id: o.buyerId, name: o.name, email: o.email },
  }));
}
