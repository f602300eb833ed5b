import type { Db, PaymentStatus } from '@shop/core';
import type { AdminPaymentJson } from '@shop/core/contract';

export async function listPayments(db: Db, statuses: string[]): Promise<AdminPaymentJson[]> {
  const rows = await db.payment.findMany({ where: { status: { in: statuses as PaymentStatus[] } }, orderBy: { createdAt: 'desc' }, take: 500 });
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
