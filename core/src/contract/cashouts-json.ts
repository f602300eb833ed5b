import { z } from 'zod';
import { CASHOUT_STATUSES } from './cashouts.ts';
import { PAYMENT_STATUSES } from './orders.ts';
import { payoutApprovalJson } from './approvals-json.ts';
import { assetJson, isoTime, money, personWithEmailJson, unitsString, weiString } from './json-parts.ts';
import { payoutCheckJson } from './payouts-json.ts';

export const cashoutJson = z.object({
  _id: z.string(),
  user: personWithEmailJson,
  wallet: z.string(),
  amountUsd: money,
  /** ETH/USD when requested (8 decimals), and the ETH amount it buys, 6 decimals. */
  ethUsd: z.string().nullable(),
  amountEth: z.string().nullable(),
  status: z.enum(CASHOUT_STATUSES),
  /** HELD: until when it waits, to a wallet new to the account (it cannot be paid before). */
  holdUntil: isoTime.nullable(),
  /** Set once the worker verified the payout transaction on chain. */
  payoutTxHash: z.string().nullable(),
  /** The latest payout hash an admin gave and the worker's verdict (CHECKING, ACCEPTED, REFUSED with the reason). */
  check: payoutCheckJson.nullable(),
  /** A replaced payout sent through a contract holds the request (it may still run) until an admin withdraws the hold: its hash. */
  heldBy: z.string().nullable(),
  /** Whether a second admin must approve paying it, and where that stands. */
  approval: payoutApprovalJson,
  paidAt: isoTime.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type CashoutJson = z.infer<typeof cashoutJson>;

/** Transfers the worker could not attribute, for admins (GET /api/admin/payments). */
export const adminPaymentJson = z.object({
  _id: z.string(),
  txHash: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  /** INFLOW: ETH that arrived with no transaction to show for it (only a refund applies). */
  source: z.enum(['REPORTED', 'INDEXED', 'INFLOW']),
  order: z.string().nullable(),
  from: z.string().nullable(),
  valueWei: weiString.nullable(),
  /** What the transfer is in, and how much of it arrived. */
  asset: assetJson,
  amount: unitsString.nullable(),
  usdValue: money.nullable(),
  blockNumber: z.string().nullable(),
  reason: z.string().nullable(),
  /** The refund its value belongs to (status REFUNDED). */
  refund: z.object({ _id: z.string(), status: z.enum(['REQUESTED', 'PAID']), wallet: z.string(), payoutTxHash: z.string().nullable() }).nullable(),
  createdAt: isoTime,
});
export type AdminPaymentJson = z.infer<typeof adminPaymentJson>;

/** The reconciler's report for admins (GET /api/admin/reconciliation). */
export const reconciliationJson = z.object({
  startedAt: isoTime,
  durationMs: z.number(),
  discrepancies: z.array(z.object({ check: z.string(), message: z.string(), ids: z.record(z.string(), z.string()) })),
  checked: z.record(z.string(), z.union([z.number(), z.string()])),
  /** 'changes': what changed since `since` (the schedule); 'audit': everything. */
  scope: z.enum(['audit', 'changes']),
  since: isoTime.nullable(),
});
export type ReconciliationJson = z.infer<typeof reconciliationJson>;

/** GET /api/admin/reconciliation: the latest report, null before the first run. */
export const reconciliationStateJson = z.object({ report: reconciliationJson.nullable() });
/** POST /api/admin/reconciliation/run (202): whether an audit started, and the latest report. */
/** `queued`: false when an audit was already running (the message says so, in English). */
export const reconciliationRunJson = z.object({ message: z.string(), queued: z.boolean(), report: reconciliationJson.nullable() });
