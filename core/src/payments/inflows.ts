import { Prisma } from '../infra/db.ts';
import type { Tx } from '../books/ledger.ts';
import { lockInflow } from './payment-locks.ts';
import type { MinedTransfer } from './transfer.ts';

/**
 * A transfer through a contract found by tracing in a block whose unexplained inflow
 * (recorded while the node could not trace) was already refunded: the refund gives back
 * this very ETH, so the transfer is not counted too. It takes its value out of what the
 * refund covers (`explainsInflowOf`), as long as the refund covers it. The caller holds
 * the block's inflow lock.
 */
export async function refundedAsInflow(tx: Tx, t: MinedTransfer): Promise<{ refundId: string } | null> {
  if (!t.internal) return null;
  const inflow = await tx.payment.findFirst({ where: { source: 'INFLOW', status: 'REFUNDED', blockHash: t.blockHash, depositAddress: null } });
  if (!inflow) return null;
  // What the inflow's refund covers already: transfers taken into it here (REFUNDED with no
  // refund of their own). One that explained part of the inflow before it was refunded
  // (explainInflow took its value out) and was then refunded on its own is not in it.
  const marked = await tx.payment.findMany({
    where: { explainsInflowOf: t.blockHash, status: 'REFUNDED', source: { not: 'INFLOW' }, depositAddress: null },
    select: { id: true, amount: true },
  });
  const ownRefunds = new Set(
    (await tx.refund.findMany({ where: { source: 'TRANSFER', paymentId: { in: marked.map((p) => p.id) } }, select: { paymentId: true } })).map((r) => r.paymentId),
  );
  const taken = marked.filter((p) => !ownRefunds.has(p.id)).reduce((sum, p) => sum + BigInt(p.amount?.toFixed(0) ?? '0'), 0n);
  const left = BigInt(inflow.amount?.toFixed(0) ?? '0') - taken;
  if (left < t.valueWei) return null;
  const refund = await tx.refund.findFirst({ where: { paymentId: inflow.id, source: 'TRANSFER' }, select: { id: true } });
  return refund ? { refundId: refund.id } : null;
}

/**
 * The inflow of a block and transfers through contracts in it found by tracing are the
 * same ETH when the inflow was recorded while the node could not trace: the traced
 * transfers' value is taken out of the inflow (deleted when nothing is left), once per
 * transfer and block (`explainsInflowOf`). Serialized per block by an advisory lock that
 * the indexer takes too when it records inflows. An inflow already refunded is left for
 * the reconciler to report (the same ETH refunded and counted).
 */
export async function explainInflow(tx: Tx, blockHash: string): Promise<void> {
  await lockInflow(tx, blockHash);
  // The receiving address's inflow and transfers (a deposit address's are its order's, apart).
  const inflow = await tx.payment.findFirst({ where: { source: 'INFLOW', status: 'UNRESOLVED', blockHash, depositAddress: null } });
  const traced = await tx.payment.findMany({
    where: {
      blockHash,
      depositAddress: null,
      viaContract: true,
      source: { not: 'INFLOW' },
      status: { in: ['COUNTED', 'UNRESOLVED', 'LATE'] },
      OR: [{ explainsInflowOf: null }, { explainsInflowOf: { not: blockHash } }],
    },
    select: { id: true, amount: true },
  });
  if (!inflow || traced.length === 0) return;
  const explained = traced.reduce((sum, p) => sum + BigInt(p.amount?.toFixed(0) ?? '0'), 0n);
  const left = BigInt(inflow.amount?.toFixed(0) ?? '0') - explained;
  await tx.payment.updateMany({ where: { id: { in: traced.map((p) => p.id) } }, data: { explainsInflowOf: blockHash } });
  if (left > 0n) await tx.payment.update({ where: { id: inflow.id }, data: { amount: new Prisma.Decimal(left.toString()) } });
  else await tx.payment.delete({ where: { id: inflow.id } });
}
