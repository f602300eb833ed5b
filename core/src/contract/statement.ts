import type { CashoutStatus } from './cashouts.ts';

/** The unit every balance and every statement amount is kept in. */
export const BALANCE_CURRENCY = 'USD';

export type LedgerKindJson =
  | 'DAILY_CREDIT'
  | 'REFERRAL_REWARD'
  | 'REFERRAL_REVERSAL'
  | 'EXCHANGE'
  | 'CASHOUT'
  | 'ADMIN_ADJUSTMENT'
  | 'OVERPAYMENT_CREDIT';

/** A cashout as its own requester sees it (statement lines and the waiting list). */
export type MyCashoutJson = {
  _id: string;
  status: CashoutStatus;
  amountUsd: string;
  wallet: string;
  /** The payout transaction, once the worker verified it on chain. */
  payoutTxHash: string | null;
  paidAt: string | null;
  createdAt: string;
};

/**
 * One line of a user's statement (GET /api/users/profile/statement): one ledger entry,
 * newest first, with what it came from. Amounts are exact decimal strings with a sign.
 */
export type StatementEntryJson = {
  _id: string;
  createdAt: string;
  kind: LedgerKindJson;
  account: 'ACTIVE' | 'PASSIVE';
  amount: string;
  currency: typeof BALANCE_CURRENCY;
  /** The user's own order the entry belongs to (daily credit, an overpayment turned into balance). */
  order?: { _id: string };
  /** Referral rewards and their reversals: the referred buyer whose order paid it. */
  from?: string;
  /** Cashouts and their return on rejection: the request, as it stands now. */
  cashout?: MyCashoutJson;
  /** This entry gives a rejected cashout's amount back. */
  cashoutReturned?: boolean;
};
