import type { PaymentStatus } from './orders.ts';
import type { PayoutApprovalJson } from './approvals.ts';
import type { PayoutCheckJson } from './payouts.ts';

export type CashoutStatus = 'REQUESTED' | 'NOTIFIED' | 'PAID' | 'REJECTED';

export type CashoutJson = {
  _id: string;
  user: { _id: string; name: string; email: string };
  wallet: string;
  amountUsd: number;
  /** ETH/USD when requested (8 decimals), and the ETH amount it buys, 6 decimals. */
  ethUsd: string | null;
  amountEth: string | null;
  status: CashoutStatus;
  /** Set once the worker verified the payout transaction on chain. */
  payoutTxHash: string | null;
  /** The latest payout hash an admin gave and the worker's verdict (CHECKING, ACCEPTED, REFUSED with the reason). */
  check: PayoutCheckJson | null;
  /** A replaced payout sent through a contract holds the request (it may still run) until an admin withdraws the hold: its hash. */
  heldBy: string | null;
  /** Whether a second admin must approve paying it, and where that stands. */
  approval: PayoutApprovalJson;
  paidAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** Transfers the worker could not attribute, for admins (GET /api/admin/payments). */
export type AdminPaymentJson = {
  _id: string;
  txHash: string;
  status: PaymentStatus;
  /** INFLOW: ETH that arrived with no transaction to show for it (only a refund applies). */
  source: 'REPORTED' | 'INDEXED' | 'INFLOW';
  order: string | null;
  from: string | null;
  valueWei: string | null;
  usdValue: number | null;
  blockNumber: string | null;
  reason: string | null;
  /** The refund its value belongs to (status REFUNDED). */
  refund: { _id: string; status: 'REQUESTED' | 'PAID'; wallet: string; payoutTxHash: string | null } | null;
  createdAt: string;
};

/** The reconciler's report for admins (GET /api/admin/reconciliation). */
export type ReconciliationJson = {
  startedAt: string;
  durationMs: number;
  discrepancies: { check: string; message: string; ids: Record<string, string> }[];
  checked: Record<string, number | string>;
  /** 'changes': what changed since `since` (the schedule); 'audit': everything. */
  scope: 'audit' | 'changes';
  since: string | null;
};
