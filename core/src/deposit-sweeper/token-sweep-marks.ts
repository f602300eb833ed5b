import type { Log } from 'viem';
import { Prisma, type Db } from '../infra/db.ts';
import { tokenBySymbol, type TokenSymbol } from '../contract/tokens.ts';
import { transferLogOf } from '../rails/erc20/logs.ts';
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

/** What each item moved, by `address|asset`, and the index of its first Transfer log. */
export function tokenMoves(sweep: Pick<SentSweep, 'items'>, logs: readonly Log[], receiving: string): Map<string, { amount: bigint; logIndex: number }> {
  const moves = new Map<string, { amount: bigint; logIndex: number }>();
  for (const item of sweep.items) {
    if (item.asset === 'ETH') continue;
    const token = tokenBySymbol(item.asset as TokenSymbol).address;
    for (const log of logs) {
      const t = transferLogOf(token, log);
      if (!t || t.from !== item.address.toLowerCase() || t.to !== receiving.toLowerCase()) continue;
      const key = `${item.address.toLowerCase()}|${item.asset}`;
      const was = moves.get(key);
      moves.set(key, { amount: (was?.amount ?? 0n) + t.amount, logIndex: Math.min(was?.logIndex ?? t.logIndex, t.logIndex) });
    }
  }
  return moves;
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
      await tx.$executeRaw`
        UPDATE "Payment" SET "sweepId" = ${sweep.id}::uuid, "updatedAt" = now()
        WHERE "depositAddress" = ${item.address.toLowerCase()} AND "asset"::text = ${item.asset} AND "sweepId" IS NULL AND "status" <> 'REJECTED'
          AND ("blockNumber" < ${mined.blockNumber} OR ("blockNumber" = ${mined.blockNumber} AND "logIndex" < ${move.logIndex}))`;
    }
    return true;
  });
}
