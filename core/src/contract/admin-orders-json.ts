import { z } from 'zod';
import { adminPaymentJson } from './cashouts-json.ts';
import { orderAmountsJson, orderItemJson, orderStateJson } from './orders-json.ts';
import { assetJson, isoTime, money, unitsString, weiString } from './json-parts.ts';
import { ORDER_STATUSES } from './orders.ts';
import { overpaymentJson, refundJson } from './payouts-json.ts';
import { webhookDeliveryStateJson } from './webhooks-json.ts';

/** One of an order's quotes: the price its ETH amount was locked at. */
export const adminOrderQuoteJson = z.object({
  _id: z.string(),
  /** What it asks in: ETH, or a token paid to the order's deposit address. */
  asset: assetJson,
  /** Smallest units of the asset, and for people ("25.00 USDC", "0.008333 ETH"). */
  amount: unitsString,
  amountText: z.string(),
  /** USD per whole unit of the asset, 8 decimals (1.00000000 for a stablecoin on its peg). */
  unitUsd: z.string(),
  usdAmount: money,
  /** The same for an ETH quote (null for a token's). */
  ethUsd: z.string().nullable(),
  amountWei: weiString.nullable(),
  /** 6 decimals. */
  amountEth: z.string().nullable(),
  createdAt: isoTime,
  expiresAt: isoTime,
});
export type AdminOrderQuoteJson = z.infer<typeof adminOrderQuoteJson>;

/**
 * A transfer on the admin order page: the Payments page's row (so its actions apply) with
 * how far it is confirmed, the block it is in, and how it relates to this order.
 */
export const adminOrderPaymentJson = adminPaymentJson.extend({
  confirmations: z.number().int(),
  requiredConfirmations: z.number().int(),
  blockHash: z.string().nullable(),
  /** The address that sent all of its value (refunds go there by default), when one did. */
  payer: z.string().nullable(),
  /** Reported by the buyer for this order but attributed to another one (or to none yet). */
  reportedOnly: z.boolean(),
});
export type AdminOrderPaymentJson = z.infer<typeof adminOrderPaymentJson>;

/** One of the order's webhook deliveries, with the endpoint it went to. */
export const adminOrderDeliveryJson = webhookDeliveryStateJson.extend({
  endpoint: z.object({ _id: z.string(), url: z.string() }),
});
export type AdminOrderDeliveryJson = z.infer<typeof adminOrderDeliveryJson>;

/** A capped list: the newest `items`, and how many there are in all. */
export type Capped<T> = { items: T[]; total: number };
const capped = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int() });

/** GET /api/admin/orders/:id: one order with everything an admin acts on (its parts shared with every view: order-views.ts). */
export const adminOrderDetailJson = z.object({
  _id: z.string(),
  /** ORD-XXXXXXXX (orderReference). */
  reference: z.string(),
  ...orderStateJson.shape,
  deletedAt: isoTime.nullable(),
  cancelledAt: isoTime.nullable(),
  /** The order's own deposit address (paying from an exchange), null when the shop had no deposit factory. */
  depositAddress: z.string().nullable(),
  ...orderAmountsJson.shape,
  /** USD received beyond the total, and the part of it already refunded or credited. */
  overpaidUsd: money,
  overpaidSettledUsd: money,
  items: z.array(orderItemJson.extend({ dailyCredit: money, durationDays: z.number().int() })),
  buyer: z.object({ _id: z.string(), name: z.string(), email: z.string(), deleted: z.boolean() }),
  quotes: capped(adminOrderQuoteJson),
  payments: capped(adminOrderPaymentJson),
  /** What is left of the overpayment to refund or credit (null when nothing is). */
  overpayment: overpaymentJson.nullable(),
  refunds: capped(refundJson),
  deliveries: capped(adminOrderDeliveryJson),
  /** What an admin may do now, decided on the server from the order's state. */
  actions: z.object({
    canDelete: z.boolean(),
    deleteBlockedReason: z.string().nullable(),
    canRefundOverpayment: z.boolean(),
  }),
});
export type AdminOrderDetailJson = z.infer<typeof adminOrderDetailJson>;

/**
 * GET /api/admin/payments/:id/orders: an order a transfer can be assigned to (open: not
 * paid, cancelled or deleted, and placed before the transfer), with its buyer and what it
 * still owes. `reported`: its buyer reported this transfer for it.
 */
export const assignableOrderJson = z.object({
  _id: z.string(),
  reference: z.string(),
  status: z.enum(ORDER_STATUSES),
  createdAt: isoTime,
  paymentDeadline: isoTime.nullable(),
  totalPrice: money,
  dueUsd: money,
  reported: z.boolean(),
  buyer: z.object({ _id: z.string(), name: z.string(), email: z.string() }),
});
export type AssignableOrderJson = z.infer<typeof assignableOrderJson>;
