import type { Db } from '../infra/db.ts';
import { FOREIGN_MARK, type SweepDeps } from './sweeper-verify.ts';

/** Confirmed sweeps looked at again per run (the newest first). */
const RECHECK_PER_RUN = 50;

/**
 * A confirmed sweep whose block a reorganization deeper than PAYMENT_CONFIRMATIONS removed
 * (within FINALITY_DEPTH: mainnet reorganizes no deeper) goes back to SENT, its deposits
 * unmarked (and what it moved early of a deposit of its own transaction cleared) and its
 * amounts cleared, in one transaction: following it again confirms it
 * where it was mined again, or finds it dropped, and its addresses are swept again.
 * Without this its deposits would stay marked swept while the ETH may be back at them.
 */
export async function reopenReorganizedSweeps(deps: SweepDeps): Promise<number> {
  const head = await deps.chain.getBlockNumber({ cacheTime: 0 });
  const recent = await deps.db.depositSweep.findMany({
    where: { status: 'CONFIRMED', blockNumber: { gt: head - BigInt(deps.config.finalityDepth) } },
    orderBy: { blockNumber: 'desc' },
    take: RECHECK_PER_RUN,
    select: { id: true, txHash: true, blockNumber: true, blockHash: true, reason: true },
  });
  let reopened = 0;
  for (const sweep of recent) {
    const block = await deps.chain.getBlock({ blockNumber: sweep.blockNumber as bigint }).catch(() => null);
    if (!block || block.hash.toLowerCase() === sweep.blockHash?.toLowerCase()) continue;
    if (await reopen(deps.db, sweep)) {
      reopened++;
      deps.logger.warn({ msg: 'a confirmed deposit sweep left the chain in a reorganization: followed again', sweep_id: sweep.id, tx_hash: sweep.txHash, block_number: String(sweep.blockNumber) });
    }
  }
  return reopened;
}

async function reopen(db: Db, sweep: { id: string; txHash: string; blockHash: string | null; reason: string | null }): Promise<boolean> {
  const sweepId = sweep.id;
  const note = 'Its block left the chain in a reorganization; followed again';
  // One someone else sent keeps its mark: the shop paid none of its gas.
  const reason = sweep.reason?.startsWith(FOREIGN_MARK) ? `${FOREIGN_MARK}. ${note}` : note;
  return db.$transaction(async (tx) => {
    const won = await tx.depositSweep.updateMany({
      where: { id: sweepId, status: 'CONFIRMED', blockHash: sweep.blockHash },
      data: { status: 'SENT', sweptWei: null, gasUsed: null, feeWei: null, blockNumber: null, blockHash: null, reason },
    });
    if (won.count === 0) return false;
    await tx.depositSweepItem.updateMany({ where: { sweepId }, data: { sweptWei: null, sweptAmount: null } });
    await tx.$executeRaw`UPDATE "Payment" SET "sweepId" = NULL, "updatedAt" = now() WHERE "sweepId" = ${sweepId}::uuid`;
    // A deposit of its own transaction it moved part of (sweeper-marks.ts) is whole at its address again.
    await tx.$executeRaw`UPDATE "Payment" SET "flushedEarly" = 0, "updatedAt" = now() WHERE "txHash" = ${sweep.txHash.toLowerCase()} AND "depositAddress" IS NOT NULL AND "flushedEarly" > 0`;
    return true;
  });
}
