import { countTransfer, getEthUsd, type PaymentStatus, type Runtime } from '@shop/core';
import type { AdminPaymentJson } from '@shop/core/contract';
import { badRequest, conflict, notFound } from '../../errors.ts';

type Deps = Pick<Runtime, 'config' | 'db' | 'redis' | 'chain'>;

export async function listPayments(db: Deps['db'], statuses: string[]): Promise<AdminPaymentJson[]> {
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

/**
 * An admin assigns an unresolved or late transfer to an order. The transfer is read
 * again from the chain (it must still be there); it is valued at the quote open when it
 * was mined, or at today's price.
 */
export async function assignPayment(deps: Deps, paymentId: string, orderId: string): Promise<{ status: string; orderStatus: string }> {
  const { db, chain, config } = deps;
  const payment = await db.payment.findUnique({ where: { id: paymentId } });
  if (!payment) throw notFound('Payment not found');
  if (payment.status !== 'UNRESOLVED' && payment.status !== 'LATE') throw conflict('Only unresolved or late transfers can be assigned');
  const order = await db.order.findUnique({ where: { id: orderId } });
  if (!order) throw notFound('Order not found');
  const receipt = await chain.getTransactionReceipt({ hash: payment.txHash as `0x${string}` }).catch(() => null);
  const tx = await chain.getTransaction({ hash: payment.txHash as `0x${string}` }).catch(() => null);
  if (!receipt || !tx || receipt.status !== 'success') throw badRequest('This transfer is not on chain as a successful transaction');
  if (tx.to?.toLowerCase() !== config.receivingAddress.toLowerCase()) throw badRequest("This transfer was not sent to the shop's receiving address");
  const block = await chain.getBlock({ blockNumber: receipt.blockNumber });
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  const outcome = await countTransfer(db, config, {
    paymentId,
    orderId,
    byAdmin: true,
    currentAnswer: async () => (await getEthUsd(deps)).answer,
    transfer: {
      valueWei: tx.value,
      from: tx.from,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      blockTimestamp: new Date(Number(block.timestamp) * 1000),
      confirmations: Number(head - receipt.blockNumber + 1n),
    },
  });
  if (outcome.kind === 'rejected') throw conflict(outcome.reason);
  const updated = await db.order.findUniqueOrThrow({ where: { id: orderId } });
  return { status: 'COUNTED', orderStatus: updated.status };
}

export async function markRefunded(db: Deps['db'], paymentId: string, refundTxHash: string): Promise<void> {
  const changed = await db.payment.updateMany({
    where: { id: paymentId, status: { in: ['UNRESOLVED', 'LATE'] } },
    data: { status: 'REJECTED', reason: `Refunded by an admin in ${refundTxHash}` },
  });
  if (changed.count !== 1) throw conflict('Only unresolved or late transfers can be refunded');
}
