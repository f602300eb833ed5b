import type { Db, Payment, PaymentStatus, Prisma } from '@shop/core';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';
import type { AdminPaymentJson } from '@shop/core/contract';

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
    valueWei: p.valueWei?.toFixed(0) ?? null,
    usdValue: p.usdValue ? Number(p.usdValue.toFixed(2)) : null,
    blockNumber: p.blockNumber?.toString() ?? null,
    reason: p.reason,
    refund: ((r) => (r ? { _id: r.id, status: r.status, wallet: r.wallet, payoutTxHash: r.payoutTxHash } : null))(refunds.find((r) => r.paymentId === p.id)),
    createdAt: p.createdAt.toISOString(),
  }));
}
