import { Prisma } from '../infra/db.ts';
import type { Tx } from '../books/ledger.ts';
import { isPayable } from './order-states.ts';
import type { MinedTransfer } from './transfer.ts';

/**
 * The row locks every payment state change takes, in one order: the payment first, then
 * its order(s) (several in id order), then package rows, then users; and a block's
 * inflow lock before the payments that explain it. Also what every change writes of a
 * transfer's block, and how an order's status follows the transfers it waits on.
 */

export async function lockPayment(tx: Tx, paymentId: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Payment" WHERE "id" = ${paymentId}::uuid FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
}

export async function lockOrder(tx: Tx, where: { id: string } | { tag: number } | { depositAddress: string }) {
  const rows =
    'id' in where
      ? await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Order" WHERE "id" = ${where.id}::uuid FOR UPDATE`
      : 'tag' in where
        ? await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Order" WHERE "paymentTag" = ${where.tag} FOR UPDATE`
        : await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Order" WHERE "depositAddress" = ${where.depositAddress.toLowerCase()} FOR UPDATE`;
  const id = rows[0]?.id;
  if (!id) return null;
  return tx.order.findUniqueOrThrow({ where: { id }, include: { quotes: { orderBy: { createdAt: 'asc' } }, user: { select: { referredById: true } } } });
}

export type LockedOrder = NonNullable<Awaited<ReturnType<typeof lockOrder>>>;

/** Locks several orders at once, in id order (the order every path that locks two takes them in). */
export async function lockOrderIds(tx: Tx, ids: (string | null | undefined)[]): Promise<void> {
  const sorted = [...new Set(ids.filter((id): id is string => Boolean(id)))].sort();
  if (sorted.length > 1) await tx.$queryRaw`SELECT "id" FROM "Order" WHERE "id" = ANY(${sorted}::uuid[]) ORDER BY "id" FOR UPDATE`;
}

/** Serializes what is done with a block's unexplained inflow (the indexer recording it, settlement explaining it). */
export async function lockInflow(tx: Tx, blockHash: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`inflow:${blockHash}`}))`;
}

/** What every state change records of the transfer as the chain shows it now. */
export const blockFields = (t: MinedTransfer) => ({
  fromAddress: t.from.toLowerCase(),
  payerAddress: t.payer?.toLowerCase() ?? null,
  viaContract: t.internal,
  amount: new Prisma.Decimal(t.valueWei.toString()),
  blockNumber: t.blockNumber,
  blockHash: t.blockHash,
  blockTimestamp: t.blockTimestamp,
  confirmations: t.confirmations,
});

/**
 * After one of its transfers changed (rejected, refunded, resolved elsewhere), an unpaid
 * order's status follows what is left: LATE while a late transfer waits for an admin,
 * VERIFYING while one is being verified, otherwise UNDERPAID or PENDING_PAYMENT (the
 * expiry job expires it when its window is over). Paid, expired and deleted orders keep
 * theirs. The caller holds the payment's lock; the order's is taken here.
 */
export async function refreshOrderStatus(tx: Tx, orderId: string): Promise<void> {
  const order = await lockOrder(tx, { id: orderId });
  if (!order || (!isPayable(order.status) && order.status !== 'LATE')) return;
  const [late, pending] = await Promise.all([
    tx.payment.count({ where: { orderId, status: 'LATE' } }),
    tx.payment.count({ where: { orderId, status: 'PENDING' } }),
  ]);
  const status = late > 0 ? 'LATE' : pending > 0 ? 'VERIFYING' : order.paidUsd.gt(0) ? 'UNDERPAID' : 'PENDING_PAYMENT';
  if (status !== order.status) await tx.order.update({ where: { id: orderId }, data: { status } });
}
