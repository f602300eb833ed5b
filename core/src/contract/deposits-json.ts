import { z } from 'zod';
import { isoTime, money, weiString } from './json-parts.ts';

/** What the sweeper's transactions can be: sent and followed, confirmed (what each address flushed recorded), reverted, never mined. */
export const DEPOSIT_SWEEP_STATUSES = ['SENT', 'CONFIRMED', 'FAILED', 'DROPPED'] as const;
export type DepositSweepStatus = (typeof DEPOSIT_SWEEP_STATUSES)[number];

/** off: no gas wallet or factory; idle: nothing to sweep; waiting: something to sweep, not sent (the reason says why); sent: a sweep went out. */
export const SWEEPER_STATES = ['off', 'idle', 'waiting', 'sent'] as const;

/** The sweeper's state as its last run left it. */
export const sweeperStatusJson = z.object({
  state: z.enum(SWEEPER_STATES),
  reason: z.string().nullable(),
  at: isoTime,
});
export type SweeperStatusJson = z.infer<typeof sweeperStatusJson>;

/**
 * Whether this api process hands out the deposit factory's addresses: off (none is
 * configured), checking (not yet checked: the node has not answered), trusted (its code and
 * its forwarder's are the shop's for the receiving address), refused (they are not: the
 * reason says what differs).
 */
export const DEPOSIT_FACTORY_STATES = ['off', 'checking', 'trusted', 'refused'] as const;

/** The deposit factory's latest check. */
export const depositFactoryJson = z.object({
  /** DEPOSIT_FACTORY_ADDRESS, lower-cased; null when none is configured. */
  address: z.string().nullable(),
  state: z.enum(DEPOSIT_FACTORY_STATES),
  reason: z.string().nullable(),
  /** When its code was last read (null before any answer). */
  checkedAt: isoTime.nullable(),
});
export type DepositFactoryJson = z.infer<typeof depositFactoryJson>;

/** An amount of ETH both ways: exact wei, and ETH with 6 decimals for people. */
const ethAmountJson = z.object({ wei: weiString, eth: z.string() });

/** What the sweeps sent in a period moved, and what their gas cost. */
export const sweepPeriodJson = z.object({
  /** Sweeps sent in the period (any state). */
  sweeps: z.number().int(),
  /** What the confirmed ones moved to the receiving address. */
  swept: ethAmountJson,
  /** The gas their receipts charged (confirmed and reverted ones). */
  gas: ethAmountJson,
});
export type SweepPeriodJson = z.infer<typeof sweepPeriodJson>;

/** GET /api/admin/deposits: the deposit addresses at a glance. */
export const depositsSummaryJson = z.object({
  /** Deposits not yet swept to the receiving address (every state but rejected). */
  unswept: ethAmountJson.extend({
    /** At the current ETH price; null while no price can be read. */
    usd: money.nullable(),
    /** Deposit addresses holding them. */
    addresses: z.number().int(),
  }),
  last24h: sweepPeriodJson,
  last30d: sweepPeriodJson,
  /** Sweeps sent and not yet confirmed, failed or dropped. */
  sweepsWaiting: z.number().int(),
  /** Null before the sweeper's first run (or while its state cannot be read). */
  sweeper: sweeperStatusJson.nullable(),
  /** Whether new orders get deposit addresses: the factory's latest check. */
  factory: depositFactoryJson,
});
export type DepositsSummaryJson = z.infer<typeof depositsSummaryJson>;

/** GET /api/admin/deposits/sweeps: one sweep transaction. */
export const depositSweepJson = z.object({
  _id: z.string(),
  txHash: z.string(),
  status: z.enum(DEPOSIT_SWEEP_STATUSES),
  /** Deposit addresses in it. */
  items: z.number().int(),
  /** ETH (a flush of the addresses' ETH) or TOKENS (the accepted tokens at settled orders' addresses). */
  kind: z.enum(['ETH', 'TOKENS']),
  /** A token sweep's amounts per token for people ("25.00 USDC, 30.50 USDT"): swept once confirmed, else expected; null for an ETH sweep. */
  tokens: z.string().nullable(),
  /** What the addresses held when it was sent (ETH; 0 for a token sweep). */
  expectedWei: weiString,
  /** What they flushed, once confirmed. */
  sweptWei: weiString.nullable(),
  /** Its gas, from the receipt. */
  feeWei: weiString.nullable(),
  blockNumber: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: isoTime,
});
export type DepositSweepJson = z.infer<typeof depositSweepJson>;

/** POST /api/admin/deposits/sweep: a sweep run asked for now (or one already queued). */
/** `queued`: false when a run was already waiting (the message says so, in English). */
export const sweepRunJson = z.object({ message: z.string(), queued: z.boolean() });
export type SweepRunJson = z.infer<typeof sweepRunJson>;
