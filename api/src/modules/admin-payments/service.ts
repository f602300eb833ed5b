import type { Db, PaymentStatus } from '@shop/core';
import type { AdminPaymentJson } from '@shop/core/contract';

export async function listPayments(db: Db, statuses: string[]): Promise<AdminPaymentJson[]> {
  const rows = await db.payment.findMany({ where: { status: { in: statuses as PaymentStatus[] } }, orderBy: { createdAt: 'desc' }, take: 500 });
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
    createdAt: p.createdAt.toISOString(),
  }));
}
