import type { Log } from 'viem';
import { Prisma, type Db } from '../infra/db.ts';
import { tokenBySymbol, type TokenSymbol } from '../contract/tokens.ts';
import { transferLogOf } from '../rails/erc20/logs.ts';
import type { Tx } from '../books/ledger.ts';
import type { Mined, SentSweep } from './sweeper-marks.ts';

/**
 * Confirming a token sweep (kind TOKENS; sweeper-verify.ts follows it to here once it is
 * mined, final, past the indexer and succeeded): what each item moved is read from its
 * token's own Transfer logs in the receipt (the pinned contract's, core/src/contract/tokens.ts:
 * a log of any other address proves nothing), from the item's deposit address to the
 * receiving address. Unlike a forwarder's Flushed event, the token's log is the token's own
 * account of the move, so it is proof enough. In one database transaction: CONFIRMED with its
 * gas and fee (it moved no ETH: sweptWei 0), each item's sweptAmount, and at each address
 * that moved its token, that token's unswept payments mined before the sweep (an earlier
 * block, or an earlier log of its block) marked swept by it. An item that moved nothing
 * (someone recovered the token first) marks nothing.
 */
const dec = (v: bigint) => new Prisma.Decimal(v.toString());

export type TokenMove = { address: string; asset: TokenSymbol; amount: bigint; logIndex: number };

/**
 * What the logs show each address moved of each of `assets` to the receiving address, by
 * `address|asset` (addresses lower case): the pinned token's own Transfer logs only, to the
 * receiving address only, and the index of the first. The one reading of a token sweep's
 * moves, for the shop's sweeps and for those found on chain (token-adopt.ts).
 */
export function tokenTransfersToReceiving(logs: readonly Log[], assets: readonly TokenSymbol[], receiving: string): Map<string, TokenMove> {
  const moves = new Map<string, TokenMove>();
  for (const asset of new Set(assets)) {
    const token = tokenBySymbol(asset).address;
    for (const log of logs) {
      const t = transferLogOf(token, log);
      if (!t || t.to !== receiving.toLowerCase()) continue;
      const key = `${t.from}|${asset}`;
      const was = moves.get(key);
      moves.set(key, { address: t.from, asset, amount: (was?.amount ?? 0n) + t.amount, logIndex: Math.min(was?.logIndex ?? t.logIndex, t.logIndex) });
    }
  }
  return moves;
}

/** What each item moved, by `address|asset`, and the index of its first Transfer log. */
export function tokenMoves(sweep: Pick<SentSweep, 'items'>, logs: readonly Log[], receiving: string): Map<string, { amount: bigint; logIndex: number }> {
  const tokenItems = sweep.items.filter((i) => i.asset !== 'ETH');
  const all = tokenTransfersToReceiving(logs, tokenItems.map((i) => i.asset as TokenSymbol), receiving);
  const wanted = new Set(tokenItems.map((i) => `${i.address.toLowerCase()}|${i.asset}`));
  return new Map([...all].filter(([key]) => wanted.has(key)));
}

/**
 * Marks swept by `sweepId` the unswept payments in `asset` at `address` mined before the
 * sweep's Transfer (an earlier block, or an earlier log of its block); how many.
 */
export function markTokenPayments(db: Db | Tx, sweepId: string, address: string, asset: string, at: { blockNumber: bigint; logIndex: number }): Promise<number> {
  return db.$executeRaw`
    UPDATE "Payment" SET "sweepId" = ${sweepId}::uuid, "updatedAt" = now()
    WHERE "depositAddress" = ${address.toLowerCase()} AND "asset"::text = ${asset} AND "sweepId" IS NULL AND "status" <> 'REJECTED'
      AND ("blockNumber" < ${at.blockNumber} OR ("blockNumber" = ${at.blockNumber} AND "logIndex" < ${at.logIndex}))`;
}

/** CONFIRMED, each item's amount, its payments marked, in one transaction (false: another worker did it). */
export async function confirmTokenSweep(db: Db, sweep: SentSweep, mined: Mined & { reason: string | null }, logs: readonly Log[], receiving: string): Promise<boolean> {
  const moves = tokenMoves(sweep, logs, receiving);
  return db.$transaction(async (tx) => {
    const won = await tx.depositSweep.updateMany({
      where: { id: sweep.id, status: 'SENT' },
      data: { ...mined, feeWei: dec(mined.feeWei), sweptWei: dec(0n), status: 'CONFIRMED' },
    });
    if (won.count === 0) return false;
    for (const item of sweep.items) {
      const move = moves.get(`${item.address.toLowerCase()}|${item.asset}`);
      await tx.depositSweepItem.update({ where: { id: item.id }, data: { sweptWei: dec(0n), sweptAmount: dec(move?.amount ?? 0n) } });
      if (!move || move.amount === 0n) continue;
      await markTokenPayments(tx, sweep.id, item.address, item.asset, { blockNumber: mined.blockNumber, logIndex: move.logIndex });
    }
    return true;
  });
}
