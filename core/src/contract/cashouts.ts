import { z } from 'zod';
import { txHash } from './common.ts';
import type { PaymentStatus } from './orders.ts';

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
  payoutTxHash: string | null;
  createdAt: string;
  updatedAt: string;
};

export const markCashoutPaidBody = z.object({ payoutTxHash: txHash });

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
  createdAt: string;
};

/** The reconciler's report for admins (GET /api/admin/reconciliation). */
export type ReconciliationJson = {
  startedAt: string;
  durationMs: number;
  discrepancies: { check: string; message: string; ids: Record<string, string> }[];
  checked: Record<string, number | string>;
};
