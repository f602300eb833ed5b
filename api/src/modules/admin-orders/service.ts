import { deleteBlockedReason, notFound, Prisma, type Db, type Runtime } from '@shop/core';
import {
  formatAsset,
  formatEth,
  orderAmountsView,
  orderLineView,
  orderReference,
  orderStateView,
  usdNumber,
  type AdminOrderDeliveryJson,
  type AdminOrderDetailJson,
  type AdminOrderPaymentJson,
  type AdminOrderQuoteJson,
} from '@shop/core/contract';
import { listPayments } from '../admin-payments/service.ts';
import { deliveryStateJson } from '../admin-webhooks/service.ts';
import { latestCheck, overpaymentJson, refundRowsJson, type ApprovalView } from '../payouts/service.ts';

/**
 * The admin order page's read: one order (its own fields from the parts every view of an
 * order shares: core's contract/order-views.ts) and everything an admin acts on, each list
 * capped at its newest entries (with its total), every read by an index led by the order's id:
 * Order (primary key), OrderItem(orderId), PaymentQuote(orderId, expiresAt),
 * Payment(orderId) and PaymentReport(orderId), Refund(orderId), WebhookDelivery(subject, seq).
 */
type Deps = Pick<Runtime, 'config' | 'db' | 'redis' | 'chain' | 'prices' | 'assetPrices'>;

/** The newest this many of each list are shown; an order rarely has more than a few. */
export const DETAIL_CAP = { quotes: 20, payments: 50, refunds: 50, deliveries: 50 } as const;
/** Reported hashes looked at (the api lets only a few wait per order; the rejected ones stay). */
const REPORTS_READ = 200;

const newestFirst = [{ createdAt: 'desc' }, { id: 'desc' }] as const;

function quoteJson(q: Prisma.PaymentQuoteGetPayload<object>): AdminOrderQuoteJson {
  const amount = q.amount.toFixed(0);
  const eth = q.asset === 'ETH';
  return {
    _id: q.id,
    asset: q.asset,
    amount,
    amountText: formatAsset(q.asset, amount),
    unitUsd: q.unitUsd.toFixed(8),
    usdAmount: usdNumber(q.usdAmount),
    ethUsd: eth ? q.unitUsd.toFixed(8) : null,
    amountWei: eth ? amount : null,
    amountEth: eth ? formatEth(amount) : null,
    createdAt: q.createdAt.toISOString(),
    expiresAt: q.expiresAt.toISOString(),
  };
}

async function orderPayments(db: Db, orderId: string, refundedPaymentIds: string[], requiredConfirmations: number) {
  // The order's transfers, those its buyer reported for it (found elsewhere or not yet), and
  // those whose refund it holds (a refunded late transfer leaves its order): ids first, then one read.
  const reported = await db.paymentReport.findMany({ where: { orderId }, select: { paymentId: true }, take: REPORTS_READ });
  const others = [...new Set([...reported.map((r) => r.paymentId), ...refundedPaymentIds])];
  const where: Prisma.PaymentWhereInput = { OR: [{ orderId }, ...(others.length ? [{ id: { in: others } }] : [])] };
  const [rows, total] = await Promise.all([
    db.payment.findMany({ where, orderBy: [...newestFirst], take: DETAIL_CAP.payments }),
    db.payment.count({ where }),
  ]);
  const listed = await listPayments(db, rows);
  const items = rows.map(
    (p, i): AdminOrderPaymentJson => ({
      ...listed[i]!,
      confirmations: p.confirmations,
      requiredConfirmations,
      blockHash: p.blockHash,
      payer: p.payerAddress,
      reportedOnly: p.orderId !== orderId && !refundedPaymentIds.includes(p.id),
    }),
  );
  return { items, total, ids: rows.map((p) => p.id) };
}

async function orderDeliveries(db: Db, subjects: string[]) {
  const where: Prisma.WebhookDeliveryWhereInput = { subject: { in: subjects } };
  const [rows, total] = await Promise.all([
    db.webhookDelivery.findMany({
      where,
      include: { event: { select: { type: true } }, endpoint: { select: { id: true, url: true } } },
      orderBy: [{ seq: 'desc' }, { id: 'desc' }],
      take: DETAIL_CAP.deliveries,
    }),
    db.webhookDelivery.count({ where }),
  ]);
  const items = rows.map(
    (d): AdminOrderDeliveryJson => ({ ...deliveryStateJson(d), endpoint: { _id: d.endpoint.id, url: d.endpoint.url } }),
  );
  return { items, total };
}

/** One order for an admin, deleted ones included (they stay as records); 404 for an id no order has. */
export async function adminOrderDetail(deps: Deps, approvals: ApprovalView, orderId: string): Promise<AdminOrderDetailJson> {
  const { db, config } = deps;
  const order = await db.order.findUnique({
    where: { id: orderId },
    include: { items: { orderBy: { id: 'asc' } }, user: { select: { id: true, name: true, email: true, deletedAt: true } } },
  });
  if (!order) throw notFound('Order not found');

  const refundWhere: Prisma.RefundWhereInput = { orderId };
  const [quotes, quotesTotal, refundRows, refundsTotal] = await Promise.all([
    db.paymentQuote.findMany({ where: { orderId }, orderBy: [...newestFirst], take: DETAIL_CAP.quotes }),
    db.paymentQuote.count({ where: { orderId } }),
    db.refund.findMany({ where: refundWhere, include: { checks: latestCheck }, orderBy: [...newestFirst], take: DETAIL_CAP.refunds }),
    db.refund.count({ where: refundWhere }),
  ]);
  const refundedPaymentIds = refundRows.flatMap((r) => (r.source === 'TRANSFER' && r.paymentId ? [r.paymentId] : []));
  const payments = await orderPayments(db, orderId, refundedPaymentIds, config.paymentConfirmations);
  const overpaid = order.status === 'PAID' && order.overpaidUsd.gt(order.overpaidSettledUsd);
  const [overpayment, refunds, deliveries] = await Promise.all([
    overpaid ? overpaymentJson(db, orderId, deps.assetPrices.marketOrNull) : null,
    refundRowsJson(db, refundRows, approvals),
    orderDeliveries(db, [`order:${orderId}`, ...payments.ids.map((id) => `payment:${id}`)]),
  ]);
  const blocked = deleteBlockedReason(order.status);

  return {
    _id: order.id,
    reference: orderReference(order.id),
    ...orderStateView(order),
    deletedAt: order.deletedAt?.toISOString() ?? null,
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
    depositAddress: order.depositAddress,
    ...orderAmountsView(order),
    overpaidUsd: usdNumber(order.overpaidUsd),
    overpaidSettledUsd: usdNumber(order.overpaidSettledUsd),
    items: order.items.map(orderLineView),
    buyer: { _id: order.user.id, name: order.user.name, email: order.user.email, deleted: order.user.deletedAt !== null },
    quotes: { items: quotes.map(quoteJson), total: quotesTotal },
    payments: { items: payments.items, total: payments.total },
    overpayment,
    refunds: { items: refunds, total: refundsTotal },
    deliveries,
    actions: { canDelete: blocked === null, deleteBlockedReason: blocked, canRefundOverpayment: overpayment !== null },
  };
}
