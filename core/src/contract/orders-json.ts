import { z } from 'zod';
import { orderAuthorizationJson } from './authorization.ts';
import { ORDER_STATUSES, PAYMENT_STATUSES } from './orders.ts';
import { assetJson, isoTime, money, unitsString, weiString } from './json-parts.ts';
import { overpaymentJson, refundJson } from './payouts-json.ts';

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
/** A line as every view sends it (order-views.ts, orderLineView): as bought, its credit and term always set. */
export type OrderLineJson = Required<Omit<OrderItemJson, 'creditEndsAt'>>;

/** Where an order stands and when: a part of every view of an order (order-views.ts, orderStateView). */
export const orderStateJson = z.object({
  status: z.enum(ORDER_STATUSES),
  isPaid: z.boolean(),
  createdAt: isoTime,
  paidAt: isoTime.nullable(),
  expiresAt: isoTime.nullable(),
  paymentDeadline: isoTime.nullable(),
});
export type OrderStateJson = z.infer<typeof orderStateJson>;

/** What an order costs and what it received, in USD: a part of every view of an order (order-views.ts, orderAmountsView). */
export const orderAmountsJson = z.object({ itemsPrice: money, totalPrice: money, paidUsd: money });
export type OrderAmountsJson = z.infer<typeof orderAmountsJson>;

export const quoteJson = z.object({
  ethUsd: z.string(),
  amountWei: weiString,
  amountEth: z.string(),
  usdAmount: money,
  receivingAddress: z.string(),
  chainId: z.number().int(),
  expiresAt: isoTime,
  /**
   * The order's own deposit address (paying from an exchange): any amount sent to it is
   * this order's, no tag needed. Absent when the shop has no deposit factory.
   */
  depositAddress: z.string().nullable().optional(),
});
export type QuoteJson = z.infer<typeof quoteJson>;

/**
 * What the shop asks now in one asset it accepts (`quotes` of an order): ETH by a tagged
 * amount to the receiving address (or any amount to the deposit address), a token
 * (USDC, USDT) by any `transfer` of it to the order's deposit address.
 */
export const assetQuoteJson = z.object({
  asset: assetJson,
  /** What to send, in the asset's smallest units. */
  amount: unitsString,
  decimals: z.number().int(),
  /** The token contract whose `transfer` pays; null for ETH (a value transfer). */
  tokenAddress: z.string().nullable(),
  /** Where the wallet sends it: the receiving address for ETH, the order's deposit address for a token. */
  payTo: z.string(),
  depositAddress: z.string().nullable(),
  receivingAddress: z.string(),
  chainId: z.number().int(),
  usdAmount: money,
  expiresAt: isoTime,
  /**
   * Set when this token may be paid with one signature (EIP-3009) that the shop sends and
   * pays the gas for: the EIP-712 domain to sign in (contract/authorization.ts). Absent:
   * only a transfer from the wallet pays.
   */
  signedTransfer: z.object({ domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int(), verifyingContract: z.string() }) }).optional(),
});
export type AssetQuoteJson = z.infer<typeof assetQuoteJson>;
/** An asset the shop accepts but does not offer for this order now, and why (its token off its peg, its price feed silent). */
export const assetNotOfferedJson = z.object({ asset: assetJson, reason: z.string() });
export type AssetNotOfferedJson = z.infer<typeof assetNotOfferedJson>;

export const paymentJson = z.object({
  txHash: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  confirmations: z.number().int(),
  requiredConfirmations: z.number().int(),
  reason: z.string().nullable(),
  valueWei: weiString.nullable(),
  /** What the transfer is in, and how much of it arrived (null as valueWei is). */
  asset: assetJson,
  amount: unitsString.nullable(),
  usdValue: money.nullable(),
});
export type PaymentJson = z.infer<typeof paymentJson>;

/** An order as its buyer reads it (order-views.ts, orderView; `quote` and what follows: the order page). */
export const orderJson = z.object({
  _id: z.string(),
  user: z.union([z.string(), z.object({ _id: z.string(), name: z.string() })]),
  ...orderStateJson.shape,
  ...orderAmountsJson.shape,
  orderedItems: z.array(orderItemJson),
  quote: quoteJson.nullable().optional(),
  /** Set when no quote could be issued because the price feed is unavailable. */
  quoteError: z.string().optional(),
  /** One quote per asset offered now (ETH first, as `quote`); absent once nothing is due. */
  quotes: z.array(assetQuoteJson).optional(),
  /** Assets the shop accepts that this order is not offered now, each with its reason. */
  quotesNotOffered: z.array(assetNotOfferedJson).optional(),
  payments: z.array(paymentJson).optional(),
  /** The order's latest signed payment (EIP-3009) and where the shop's transaction is. */
  authorization: orderAuthorizationJson.nullable().optional(),
  /** What a paid order received beyond its total and the buyer has not refunded or credited yet. */
  overpayment: overpaymentJson.nullable().optional(),
  /** Refunds of this order's overpayment or of its transfers, with their payout. */
  refunds: z.array(refundJson).optional(),
});
export type OrderJson = z.infer<typeof orderJson>;

/** An order in the admin list: the user as {_id, name} and a summary of its transfers. */
export const adminOrderJson = orderJson.omit({ payments: true }).extend({
  payments: z.array(z.object({ txHash: z.string(), status: z.enum(PAYMENT_STATUSES), asset: assetJson, amount: unitsString.nullable(), usdValue: money.nullable() })),
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
