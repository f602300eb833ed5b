import type { PublicClient } from 'viem';
import type { Tracer } from '../chain/trace.ts';
import type { AppConfig } from '../infra/config.ts';
import type { Db } from '../infra/db.ts';
import type { Effect } from '../infra/effects.ts';
import type { PayoutTarget } from '../infra/queues.ts';
import type { Logger } from '../infra/logger.ts';

/**
 * Money out: refunds of a transfer no order took (an overpayment's: payments/overpayment.ts)
 * and the check of every payout transaction an admin names for a cashout or a refund. A refund is valued
 * at the ETH the shop received (no exchange-rate gain or loss for either side); a payout
 * becomes PAID only when the worker has read its transaction on chain: succeeded, on the
 * shop's chain, delivering to the requested wallet the expected value within
 * PAYOUT_TOLERANCE_BPS, with PAYMENT_CONFIRMATIONS, and paying no other payout.
 */
export type Deps = { db: Db; config: AppConfig; chain: PublicClient; tracer: Tracer; logger: Logger };

export type CheckRow = NonNullable<Awaited<ReturnType<Db['payoutCheck']['findUnique']>>>;

/** A payout transaction's sender and nonce: a transaction with the same pair replaces it. */
export type Sender = { fromAddress: string; nonce: bigint };

export type PayoutVerdict =
  | { state: 'skipped' }
  /** `retryInMs`: when to read it again (every PAYOUT_RECHECK_MS, every 5 minutes once it has waited PAYOUT_GIVE_UP_MINUTES). */
  | { state: 'wait'; reason: string; retryInMs: number }
  /** `effects`: the check of the transaction that replaced this one (same sender and nonce), to be read now. */
  | { state: 'refused'; reason: string; effects: Effect[] }
  /** `effects`: the notice to the person paid (a refund of ETH nobody's account sent gets none). */
  | { state: 'accepted'; target: PayoutTarget; effects: Effect[] };

