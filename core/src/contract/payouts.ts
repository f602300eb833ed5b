import type { PayoutApprovalJson } from './approvals.ts';
import { z } from 'zod';
import { ethAddress, txHash } from './common.ts';

/** Marking a cashout or a refund paid: the worker checks this transaction on chain first. */
export const markPaidBody = z.object({ payoutTxHash: txHash });

/** An admin's refund of an order's overpayment: to the address that sent it unless a wallet is given (a transfer's refund: POST /api/admin/payments/:id/refund). */
export const createRefundBody = z.object({
  orderId: z.string().uuid('is not a valid order id'),
  wallet: ethAddress.optional(),
});

/** A buyer's choice for an order's overpayment. */
export const overpaymentBody = z.object({ action: z.enum(['balance', 'refund']) });

/** Another wallet for a refund, signed by the address that sent the refunded ETH. */
export const refundWalletBody = z.object({
  wallet: ethAddress,
  signature: z.string().trim().regex(/^0x[0-9a-fA-F]{130,}$/, 'must be a signature (0x followed by hex)').max(20_000, 'is too long'),
});

export type PayoutCheckJson = {
  txHash: string;
  status: 'CHECKING' | 'ACCEPTED' | 'REFUSED';
  /** Why it was refused, or what the worker waits for. */
  reason: string | null;
  /** The node has shown the transaction (pending or mined): it can no longer be withdrawn, only replaced. */
  seen: boolean;
  createdAt: string;
};

export type RefundStatus = 'REQUESTED' | 'PAID';

export type RefundJson = {
  _id: string;
  source: 'TRANSFER' | 'OVERPAYMENT';
  order: string | null;
  /** The refunded transfer (or, for an overpayment, the transfer that overpaid). */
  txHash: string | null;
  user: { _id: string; name: string; email: string } | null;
  wallet: string;
  /** sender (the address that paid), admin (an admin named it), claim (the sender signed for it). */
  walletSource: 'sender' | 'admin' | 'claim';
  amountWei: string;
  /** 6 decimals. */
  amountEth: string;
  amountUsd: number | null;
  status: RefundStatus;
  payoutTxHash: string | null;
  /** The latest payout hash an admin gave and the worker's verdict. */
  check: PayoutCheckJson | null;
  /** A replaced payout sent through a contract holds the refund (it may still run) until an admin withdraws the hold: its hash. */
  heldBy: string | null;
  /** Admin lists: whether a second admin must approve paying it, and where that stands. */
  approval?: PayoutApprovalJson;
  createdAt: string;
  paidAt: string | null;
};

/** One transfer's part of an overpayment: a refund of it goes back to the address that paid that transfer. */
export type OverpaymentPartJson = { txHash: string; from: string | null; wei: string; eth: string; usd: number };

/** An order's overpayment and what is left of it to refund or credit (GET /api/admin/refunds/overpaid, order JSON). */
export type OverpaymentJson = {
  /** USD left to settle, as valued when it arrived. */
  usd: number;
  /** What adding it to the balance gives now: per transfer, the lower of that value and its ETH at today's price (null while no price can be read). */
  creditUsd: number | null;
  /** What is left in the ETH it arrived as (a refund sends back exactly this). */
  wei: string;
  eth: string;
  /** The one address all of it goes back to, or null when it came from several (or from none alone). */
  from: string | null;
  /** Some part has an address that paid it alone, so it can be refunded there without naming a wallet (parts without one are left). */
  refundable: boolean;
  /** Per transfer that overpaid: each part is refunded to its own sender. */
  parts: OverpaymentPartJson[];
};

export type OverpaidOrderJson = {
  _id: string;
  user: { _id: string; name: string; email: string };
  totalPrice: number;
  paidUsd: number;
  overpayment: OverpaymentJson;
  paidAt: string | null;
};
