import { z } from 'zod';
import { REFUND_STATUSES } from './payouts.ts';
import { payoutApprovalJson } from './approvals-json.ts';
import { assetJson, isoTime, money, personWithEmailJson, unitsString, weiString } from './json-parts.ts';

export const payoutCheckJson = z.object({
  txHash: z.string(),
  status: z.enum(['CHECKING', 'ACCEPTED', 'REFUSED']),
  /** Why it was refused, or what the worker waits for. */
  reason: z.string().nullable(),
  /** The node has shown the transaction (pending or mined): it can no longer be withdrawn, only replaced. */
  seen: z.boolean(),
  createdAt: isoTime,
});
export type PayoutCheckJson = z.infer<typeof payoutCheckJson>;
export const refundJson = z.object({
  _id: z.string(),
  source: z.enum(['TRANSFER', 'OVERPAYMENT']),
  order: z.string().nullable(),
  /** The refunded transfer (or, for an overpayment, the transfer that overpaid). */
  txHash: z.string().nullable(),
  user: personWithEmailJson.nullable(),
  wallet: z.string(),
  /** sender (the address that paid), admin (an admin named it), claim (the sender signed for it). */
  walletSource: z.enum(['sender', 'admin', 'claim']),
  /** What it pays back, in the asset the transfer arrived in (smallest units), and for people ("25.00 USDC"). */
  asset: assetJson,
  amount: unitsString,
  amountText: z.string(),
  /** The same for an ETH refund (null for a token's). */
  amountWei: weiString.nullable(),
  /** 6 decimals. */
  amountEth: z.string().nullable(),
  amountUsd: money.nullable(),
  status: z.enum(REFUND_STATUSES),
  payoutTxHash: z.string().nullable(),
  /** The latest payout hash an admin gave and the worker's verdict. */
  check: payoutCheckJson.nullable(),
  /** A replaced payout sent through a contract holds the refund (it may still run) until an admin withdraws the hold: its hash. */
  heldBy: z.string().nullable(),
  /** Admin lists: whether a second admin must approve paying it, and where that stands. */
  approval: payoutApprovalJson.optional(),
  createdAt: isoTime,
  paidAt: isoTime.nullable(),
});
export type RefundJson = z.infer<typeof refundJson>;

/** One transfer's part of an overpayment, in its own asset: a refund of it goes back to the address that paid that transfer. */
/** One transfer's excess, in its own asset (`amount`, smallest units); `wei` and `eth` for an ETH part only. */
export const overpaymentPartJson = z.object({ txHash: z.string(), from: z.string().nullable(), asset: assetJson, amount: unitsString, wei: weiString.nullable(), eth: z.string().nullable(), usd: money });
export type OverpaymentPartJson = z.infer<typeof overpaymentPartJson>;

/** An order's overpayment and what is left of it to refund or credit (GET /api/admin/refunds/overpaid, order JSON). */
export const overpaymentJson = z.object({
  /** USD left to settle, as valued when it arrived. */
  usd: money,
  /** What adding it to the balance gives now: per transfer, the lower of that value and its asset's at today's price (null while a price cannot be read). */
  creditUsd: money.nullable(),
  /** What is left of its ETH parts, in the ETH they arrived as (a refund sends back exactly this); a token part is in `parts`. */
  wei: weiString,
  eth: z.string(),
  /** The one address all of it goes back to, or null when it came from several (or from none alone). */
  from: z.string().nullable(),
  /** Some part has an address that paid it alone, so it can be refunded there without naming a wallet (parts without one are left). */
  refundable: z.boolean(),
  /** Per transfer that overpaid: each part is refunded to its own sender. */
  parts: z.array(overpaymentPartJson),
});
export type OverpaymentJson = z.infer<typeof overpaymentJson>;

export const overpaidOrderJson = z.object({
  _id: z.string(),
  user: personWithEmailJson,
  totalPrice: money,
  paidUsd: money,
  overpayment: overpaymentJson,
  paidAt: isoTime.nullable(),
});
export type OverpaidOrderJson = z.infer<typeof overpaidOrderJson>;

/** POST /api/admin/payments/:id/refund (201). */
/** `awaitsApproval`: a second admin must approve it before it is paid (the message says so, in English). */
export const refundRequestedJson = z.object({ message: z.string(), refundId: z.string(), awaitsApproval: z.boolean() });
