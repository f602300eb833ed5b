import { z } from 'zod';
import { intInRange, isoTime, money, txHash, usdAmount, weiString } from './common.ts';
import { overpaymentJson, refundJson } from './payouts.ts';

export const createOrderBody = z.object({
  orderedItems: z
    .array(z.object({ _id: z.string().uuid('is not a valid product id'), qty: intInRange(1, 1000) }).passthrough())
    .max(50, 'has too many lines (50 at most)'),
  itemsPrice: usdAmount,
  totalPrice: usdAmount,
});

export const reportPaymentBody = z.object({ txHash });

/** A buyer's claim of a transfer that reached the shop without its order's tag (PUT /api/orders/:id/claim). */
export const claimPaymentBody = z.object({
  txHash,
  signature: z.string().trim().regex(/^0x[0-9a-fA-F]{130,}$/, 'must be a signature (0x followed by hex)').max(20_000, 'is too long'),
});

/** Every state an order can be in. */
export const ORDER_STATUSES = ['PENDING_PAYMENT', 'VERIFYING', 'UNDERPAID', 'LATE', 'PAID', 'EXPIRED', 'DELETED', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** The states the order lists filter by (`?status=PAID,LATE`): a deleted order is listed nowhere. */
export const LISTED_ORDER_STATUSES = ORDER_STATUSES.filter((s): s is Exclude<OrderStatus, 'DELETED'> => s !== 'DELETED');

export const PAYMENT_STATUSES = ['PENDING', 'COUNTED', 'REJECTED', 'UNRESOLVED', 'LATE', 'REFUNDED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const orderItemJson = z.object({
  name: z.string(),
  image: z.string(),
  price: money,
  qty: z.number().int(),
  product: z.string(),
  /** The package's daily credit per unit and term, as bought. */
  dailyCredit: money.optional(),
  durationDays: z.number().int().optional(),
  /** When the line's daily credit ends (set once the order is paid). */
  creditEndsAt: isoTime.nullable().optional(),
});
export type OrderItemJson = z.infer<typeof orderItemJson>;

export const quoteJson = z.object({
  ethUsd: z.string(),
  amountWei: weiString,
  amountEth: z.string(),
  usdAmount: money,
  receivingAddress: z.string(),
  chainId: z.number().int(),
  expiresAt: isoTime,
});
export type QuoteJson = z.infer<typeof quoteJson>;

export const paymentJson = z.object({
  txHash: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  confirmations: z.number().int(),
  requiredConfirmations: z.number().int(),
  reason: z.string().nullable(),
  valueWei: weiString.nullable(),
  usdValue: money.nullable(),
});
export type PaymentJson = z.infer<typeof paymentJson>;

export const orderJson = z.object({
  _id: z.string(),
  user: z.union([z.string(), z.object({ _id: z.string(), name: z.string() })]),
  status: z.enum(ORDER_STATUSES),
  isPaid: z.boolean(),
  createdAt: isoTime,
  paidAt: isoTime.nullable(),
  expiresAt: isoTime.nullable(),
  paymentDeadline: isoTime.nullable(),
  itemsPrice: money,
  totalPrice: money,
  paidUsd: money,
  orderedItems: z.array(orderItemJson),
  quote: quoteJson.nullable().optional(),
  /** Set when no quote could be issued because the price feed is unavailable. */
  quoteError: z.string().optional(),
  payments: z.array(paymentJson).optional(),
  /** What a paid order received beyond its total and the buyer has not refunded or credited yet. */
  overpayment: overpaymentJson.nullable().optional(),
  /** Refunds of this order's overpayment or of its transfers, with their payout. */
  refunds: z.array(refundJson).optional(),
});
export type OrderJson = z.infer<typeof orderJson>;

/** An order in the admin list: the user as {_id, name} and a summary of its transfers. */
export const adminOrderJson = orderJson.omit({ payments: true }).extend({
  payments: z.array(z.object({ txHash: z.string(), status: z.enum(PAYMENT_STATUSES), usdValue: money.nullable() })),
  /** Whether 'Delete Order' applies (decided on the server), and why not when it does not. */
  canDelete: z.boolean(),
  deleteBlockedReason: z.string().nullable(),
});
export type AdminOrderJson = z.infer<typeof adminOrderJson>;

/** PUT /api/orders/:id/purchased (202): the reported payment's state; the worker decides the rest. */
export const paymentReportJson = z.object({ status: z.enum(PAYMENT_STATUSES) });
/** PUT /api/orders/:id/claim and POST /api/admin/payments/:id/assign: the transfer's state and its order's. */
export const paymentClaimJson = z.object({ status: z.enum(PAYMENT_STATUSES), orderStatus: z.enum(ORDER_STATUSES) });
/** POST /api/orders/:id/cancel. */
export const cancelOrderJson = z.object({ message: z.string(), order: orderJson });
