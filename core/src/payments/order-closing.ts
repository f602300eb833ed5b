import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db, type OrderStatus } from '../infra/db.ts';
import { badRequest, conflict, notFound } from '../infra/errors.ts';
import { emitEvent, emitPaymentUnresolved, orderEventData } from '../events/webhooks.ts';
import { EXPIRABLE_STATUSES, PAYABLE_STATUSES, SETTLED_STATUSES } from './order-states.ts';
import { ORDER_CANCELLED, ORDER_DELETED } from './reasons.ts';
import { releaseStock } from './stock.ts';

/**
 * How an unpaid order ends without being paid: its payment window runs out (expiry, and
 * the tags freed after the monitoring window), its buyer cancels it, or an admin deletes it.
 */
const HOUR = 3600_000;

/**
 * Orders whose payment window is over, with no transfer still being verified for them
 * (a payment seen in the mempool, or the relay's transaction of a signed payment, holds its
 * order open for MEMPOOL_GRACE_MINUTES): unpaid ones become EXPIRED, and
 * both they and LATE ones give their stock back, once. Tags of settled orders are freed
 * once no late transfer can still arrive for them (LATE_PAYMENT_HOURS after their last
 * quote, payment or deletion).
 */
export async function expireOrders(db: Db, config: AppConfig, now = new Date()): Promise<{ expired: number; released: number; tagsReleased: number }> {
  const waiting = { none: { status: 'PENDING' as const } };
  // A transfer mined and waiting for confirmations holds its order; one still in the
  // mempool only for MEMPOOL_GRACE_MINUTES past the window.
  const graceEnd = new Date(now.getTime() - config.mempoolGraceMinutes * 60_000);
  // Through the partial index x_order_expirable (the orders that can still expire, never
  // the paid, expired and settled-late history): the statuses go in as literals, the
  // index's predicate, so the planner can use it.
  const payable = Prisma.raw(PAYABLE_STATUSES.map((s) => `'${s}'`).join(', '));
  const candidates = await db.$queryRaw<{ id: string }[]>`
    SELECT o."id" FROM "Order" o
    WHERE (o."status" IN (${payable}) OR (o."status" = 'LATE' AND o."stockReserved"))
      AND o."paymentDeadline" < ${now}
      AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p."orderId" = o."id" AND p."status" = 'PENDING' AND p."blockNumber" IS NOT NULL)
      AND (o."paymentDeadline" < ${graceEnd} OR (NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p."orderId" = o."id" AND p."status" = 'PENDING')
        AND NOT EXISTS (SELECT 1 FROM "PaymentAuthorization" a WHERE a."orderId" = o."id" AND a."status" = 'SENT')))
    ORDER BY o."paymentDeadline" LIMIT 500`;
  let expired = 0;
  let released = 0;
  for (const { id } of candidates) {
    await db.$transaction(async (tx) => {
      // Payments first, then the order: the order every payment path locks them in.
      await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "orderId" = ${id}::uuid ORDER BY "id" FOR UPDATE`;
      const rows = await tx.$queryRaw<{ status: OrderStatus; paymentDeadline: Date | null }[]>`
        SELECT "status", "paymentDeadline" FROM "Order" WHERE "id" = ${id}::uuid FOR UPDATE`;
      const status = rows[0]?.status;
      if (!status || !(EXPIRABLE_STATUSES as readonly OrderStatus[]).includes(status)) return;
      const inGrace = (rows[0]?.paymentDeadline?.getTime() ?? 0) >= graceEnd.getTime();
      const holding = await tx.payment.count({ where: { orderId: id, status: 'PENDING', ...(inGrace ? {} : { blockNumber: { not: null } }) } });
      if (holding > 0) return;
      // The shop's own transaction of a buyer's signed payment (core/src/relay/), on its way: a payment in the mempool.
      if (inGrace && (await tx.paymentAuthorization.count({ where: { orderId: id, status: 'SENT' } })) > 0) return;
      if (status !== 'LATE') {
        // Paid in part when its window ran out: what was paid waits for an admin (LATE),
        // to be refunded or assigned, and the order with it.
        const partial = await tx.payment.updateMany({
          where: { orderId: id, status: 'COUNTED' },
          data: { status: 'LATE', reason: 'Its order expired before it was fully paid; an admin will refund it or assign it' },
        });
        const updated = await tx.order.update({
          where: { id },
          data: partial.count > 0 ? { status: 'LATE', paidUsd: new Prisma.Decimal(0), overpaidUsd: new Prisma.Decimal(0) } : { status: 'EXPIRED' },
        });
        await emitEvent(tx, partial.count > 0 ? 'order.late' : 'order.expired', `order:${id}`, orderEventData(updated));
        expired++;
      }
      if (await releaseStock(tx, id)) released++;
    });
  }
  const monitorCutoff = new Date(now.getTime() - config.latePaymentHours * HOUR);
  const freed = await db.order.updateMany({
    where: {
      paymentTag: { not: null },
      status: { in: [...SETTLED_STATUSES] },
      quotes: { every: { expiresAt: { lt: monitorCutoff } } },
      AND: [
        { OR: [{ paidAt: { lt: monitorCutoff } }, { paidAt: null }] },
        { OR: [{ deletedAt: { lt: monitorCutoff } }, { deletedAt: null }] },
        { OR: [{ cancelledAt: { lt: monitorCutoff } }, { cancelledAt: null }] },
      ],
      payments: waiting,
    },
    data: { paymentTag: null },
  });
  return { expired, released, tagsReleased: freed.count };
}

/**
 * The buyer cancels their own unpaid order: its stock goes back at once and it no longer
 * counts among their unpaid orders nor offers a quote. It stays as CANCELLED, keeping its
 * tag through the monitoring window (as an expired or deleted one does): a transfer the
 * buyer's wallet had already sent that arrives later is kept on it as LATE, for an admin
 * to refund, and never taken for another order that drew the same tag. What it received
 * already (UNDERPAID) waits the same way. Not while a transfer for it is being confirmed
 * (it may pay the order in a moment). Another buyer's order is not found.
 */
export async function cancelOrder(db: Db, input: { orderId: string; userId: string }, now = new Date()): Promise<Prisma.OrderGetPayload<object>> {
  return db.$transaction(async (tx) => {
    // Payments first, then the order: the order every payment path locks them in.
    await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "orderId" = ${input.orderId}::uuid ORDER BY "id" FOR UPDATE`;
    const rows = await tx.$queryRaw<{ status: OrderStatus; userId: string }[]>`SELECT "status", "userId" FROM "Order" WHERE "id" = ${input.orderId}::uuid FOR UPDATE`;
    const order = rows[0];
    if (!order || order.userId !== input.userId || order.status === 'DELETED') throw notFound('Order not found');
    if (order.status === 'CANCELLED') throw conflict('This order is cancelled already');
    if (order.status === 'PAID') throw conflict('A paid order cannot be cancelled');
    if (order.status === 'EXPIRED') throw conflict('This order expired: there is nothing left to cancel');
    if (order.status === 'LATE') throw conflict('A late payment for this order is waiting for the shop: it cannot be cancelled now');
    // A signed payment the relay sent (core/src/relay/) is a payment on its way too.
    const onTheWay = async () =>
      (await tx.payment.count({ where: { orderId: input.orderId, status: 'PENDING' } })) > 0 ||
      (await tx.paymentAuthorization.count({ where: { orderId: input.orderId, status: 'SENT' } })) > 0;
    if (order.status === 'VERIFYING' || (await onTheWay())) {
      throw conflict('A payment for this order is being confirmed on chain: it cannot be cancelled now');
    }
    await tx.payment.updateMany({ where: { orderId: input.orderId, status: 'COUNTED' }, data: { status: 'LATE', reason: ORDER_CANCELLED } });
    await releaseStock(tx, input.orderId);
    const updated = await tx.order.update({
      where: { id: input.orderId },
      data: { status: 'CANCELLED', cancelledAt: now, paidUsd: new Prisma.Decimal(0), overpaidUsd: new Prisma.Decimal(0) },
    });
    await emitEvent(tx, 'order.cancelled', `order:${input.orderId}`, orderEventData(updated), now);
    return updated;
  });
}

/**
 * An admin deletes an unpaid order (paid ones are financial records). Its stock is
 * released once; transfers already seen wait for an admin (UNRESOLVED); the order stays
 * as DELETED so its tag is kept through the monitoring window and a late transfer
 * carrying it is never taken for another order's.
 */
/**
 * Why an admin may not delete an order in this state, or null when they may: the one rule
 * the delete itself and the admin screens (which offer 'Delete Order' only when it applies) share.
 */
export function deleteBlockedReason(status: OrderStatus): string | null {
  if (status === 'PAID') return PAID_NOT_DELETABLE;
  if (status === 'DELETED') return 'This order was deleted already';
  return null;
}
export const PAID_NOT_DELETABLE = 'Paid orders cannot be deleted';

export async function deleteOrder(db: Db, orderId: string, now = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    // Locks in the order every payment path takes them: the order's payments first
    // (in id order), then the order, then (releasing stock) its packages.
    await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "orderId" = ${orderId}::uuid ORDER BY "id" FOR UPDATE`;
    const rows = await tx.$queryRaw<{ status: OrderStatus }[]>`SELECT "status" FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
    const status = rows[0]?.status;
    if (!status || status === 'DELETED') throw notFound('Order not found');
    const blocked = deleteBlockedReason(status);
    if (blocked) throw badRequest(blocked);
    await releaseStock(tx, orderId);
    // Value that arrived waits for an admin; a transfer still being verified is judged
    // again without the order (its tag now names a deleted order: UNRESOLVED too).
    const waiting = await tx.payment.findMany({ where: { orderId, status: { in: ['COUNTED', 'LATE'] } } });
    await tx.payment.updateMany({ where: { id: { in: waiting.map((p) => p.id) } }, data: { status: 'UNRESOLVED', orderId: null, reason: ORDER_DELETED } });
    for (const p of waiting) await emitPaymentUnresolved(tx, p, ORDER_DELETED);
    await tx.payment.updateMany({ where: { orderId, status: 'PENDING' }, data: { orderId: null } });
    await tx.order.update({ where: { id: orderId }, data: { status: 'DELETED', deletedAt: now, paidUsd: new Prisma.Decimal(0), overpaidUsd: new Prisma.Decimal(0) } });
  });
}
