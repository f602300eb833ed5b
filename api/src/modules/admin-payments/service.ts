import type { Db, PaymentStatus, Prisma } from '@shop/core';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';
import type { AdminPaymentJson } from '@shop/core/contract';

/** One page of transfers in the given states, newest first (index Payment(status, createdAt, id)). */
export function paymentsPage(db: Db, statuses: PaymentStatus[], page: PageQuery) {
  return db.payment.findMany({
    where: { status: { in: statuses }, ...(keysetWhere('createdAt', 'desc', page.after) as Prisma.PaymentWhereInput) },
    orderBy: keysetOrder('createdAt', 'desc') as Prisma.PaymentOrderByWithRelationInput[],
    take: page.limit + 1,
  });
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
