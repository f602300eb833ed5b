import type { Address, PublicClient } from 'viem';
import type { Db } from '../infra/db.ts';
import { PAYABLE_STATUSES } from '../payments/order-states.ts';
import { heldWei } from './sweeper-marks.ts';

/** This many batches' worth of candidates is read a run (ETH's and the tokens'), never the history. */
export const CANDIDATE_PAGES = 4;

/**
 * Which deposit addresses a sweep may take, and what they hold on chain.
 *
 * An unswept deposit is an ETH Payment with a deposit address, no sweep, not REJECTED (the
 * partial index x_payment_unswept_deposit holds exactly those, so this never reads the
 * history of swept ones; token deposits are token-sweeps.ts's). An address is a candidate when all its unswept deposits are
 * settled (none PENDING), its order no longer waits for payment, and no sweep on its way
 * (SENT) holds it, but one the node lost. Why the order must be done: once swept, the address has code, and a
 * top-up sent with a plain transfer's 21,000 gas fails there; an order still being paid
 * keeps a plain address.
 *
 * The largest recorded deposits come first: dust anyone can send to a thousand old
 * addresses (1 wei each) sorts last, so it never crowds a real deposit out of the page.
 */
export type Candidate = {
  address: Address;
  orderId: string;
  /** What the books say reached it and is not swept yet (its unswept deposits' heldWei, sweeper-marks.ts). */
  recordedWei: bigint;
  /** The block of its oldest unswept deposit, else its order's placement (where a search for its Flushed events starts). */
  fromBlock: bigint | null;
};

export type Holding = Candidate & { balanceWei: bigint };

/** `lost`: sweeps on their way the node lost (sweeper-verify.ts), whose addresses are taken again. */
export async function readCandidates(db: Db, limit: number, lost: string[] = []): Promise<Candidate[]> {
  const payable = [...PAYABLE_STATUSES] as string[];
  const rows = await db.$queryRaw<{ address: string; orderId: string; recorded: string; fromBlock: bigint | null }[]>`
    SELECT p."depositAddress" AS address, o."id"::text AS "orderId", COALESCE(SUM(${heldWei('p')}), 0)::text AS recorded, COALESCE(MIN(p."blockNumber"), o."placedAtBlock") AS "fromBlock"
    FROM "Payment" p
    JOIN "Order" o ON o."depositAddress" = p."depositAddress"
    WHERE p."depositAddress" IS NOT NULL AND p."asset" = 'ETH' AND p."sweepId" IS NULL AND p."status" <> 'REJECTED'
      AND o."status"::text <> ALL(${payable}::text[])
      -- Paid, or its payment window over: an order an admin's refund could make payable
      -- again must still take a plain 21,000-gas top-up (a swept address has code).
      AND (o."status" = 'PAID' OR o."paymentDeadline" < now())
      AND NOT EXISTS (
        SELECT 1 FROM "DepositSweepItem" i JOIN "DepositSweep" s ON s."id" = i."sweepId"
        WHERE i."address" = p."depositAddress" AND s."status" = 'SENT' AND s."id"::text <> ALL(${lost}::text[]))
    GROUP BY p."depositAddress", o."id"
    HAVING bool_and(p."status" <> 'PENDING')
    ORDER BY COALESCE(SUM(${heldWei('p')}), 0) DESC, p."depositAddress"
    LIMIT ${limit}`;
  return rows.map((r) => ({ address: r.address as Address, orderId: r.orderId, recordedWei: BigInt(r.recorded), fromBlock: r.fromBlock }));
}

/** How many balances are asked for at once. */
const BALANCE_READS_AT_ONCE = 20;

/** Each candidate's balance at the latest block. */
export async function readHoldings(chain: PublicClient, candidates: Candidate[]): Promise<Holding[]> {
  const out: Holding[] = [];
  for (let i = 0; i < candidates.length; i += BALANCE_READS_AT_ONCE) {
    const chunk = candidates.slice(i, i + BALANCE_READS_AT_ONCE);
    const balances = await Promise.all(chunk.map((c) => chain.getBalance({ address: c.address, blockTag: 'latest' })));
    chunk.forEach((c, j) => out.push({ ...c, balanceWei: balances[j] as bigint }));
  }
  return out;
}

/**
 * Gas one more address adds to a sweep: deploying its proxy and flushing it is about
 * 57,500 (docs/decisions.md, "Gas"); a balance worth less than this at the current fee is
 * dust, left where it is (it costs more to move than it is worth).
 */
export const GAS_PER_ADDRESS = 60_000n;

/** The candidates worth sweeping at `maxFeePerGas`, largest first, and how many hold only dust. */
export function worthSweeping(holdings: Holding[], maxFeePerGas: bigint): { sweepable: Holding[]; dust: Holding[] } {
  const floor = GAS_PER_ADDRESS * maxFeePerGas;
  const held = holdings.filter((h) => h.balanceWei > 0n);
  const sweepable = held.filter((h) => h.balanceWei >= floor).sort((a, b) => (a.balanceWei === b.balanceWei ? 0 : a.balanceWei > b.balanceWei ? -1 : 1));
  return { sweepable, dust: held.filter((h) => h.balanceWei < floor) };
}
