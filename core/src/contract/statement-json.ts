import { z } from 'zod';
import { CASHOUT_STATUSES } from './cashouts.ts';
import { BALANCE_CURRENCY, LEDGER_KINDS } from './statement.ts';
import { isoTime } from './json-parts.ts';

/** A cashout as its own requester sees it (statement lines and the waiting list). */
export const myCashoutJson = z.object({
  _id: z.string(),
  status: z.enum(CASHOUT_STATUSES),
  amountUsd: z.string(),
  wallet: z.string(),
  /** The payout transaction, once the worker verified it on chain. */
  payoutTxHash: z.string().nullable(),
  paidAt: isoTime.nullable(),
  /** HELD: until when it waits (a wallet new to the account). */
  holdUntil: isoTime.nullable(),
  createdAt: isoTime,
});
export type MyCashoutJson = z.infer<typeof myCashoutJson>;

/**
 * One line of a user's statement (GET /api/users/profile/statement): one ledger entry,
 * newest first, with what it came from. Amounts are exact decimal strings with a sign.
 */
export const statementEntryJson = z.object({
  _id: z.string(),
  createdAt: isoTime,
  kind: z.enum(LEDGER_KINDS),
  account: z.enum(['ACTIVE', 'PASSIVE']),
  amount: z.string(),
  currency: z.literal(BALANCE_CURRENCY),
  /** The user's own order the entry belongs to (daily credit, an overpayment turned into balance). */
  order: z.object({ _id: z.string() }).optional(),
  /** Referral rewards and their reversals: the referred buyer whose order paid it. */
  from: z.string().optional(),
  /** Cashouts and their return on rejection or cancel: the request, as it stands now. */
  cashout: myCashoutJson.optional(),
  /** This entry gives a rejected (or cancelled) cashout's amount back. */
  cashoutReturned: z.boolean().optional(),
});
export type StatementEntryJson = z.infer<typeof statementEntryJson>;
