import type { Hash } from 'viem';
import type { Holding } from './sweeper-candidates.ts';
import { markSwept } from './sweeper-marks.ts';
import { flushLogs, recordFoundSweep, type SweepDeps } from './sweeper-found.ts';

/**
 * Deposit addresses holding less than the books say reached them and is unswept: someone
 * flushed them. Anyone may call the factory's sweep (or a deployed proxy's flush), and an external
 * signer may have sent one of ours before its row was written (a crash in between). The
 * address's own Flushed event says which transaction did it:
 * - a sweep the shop knows, confirmed: the deposits recorded after it was confirmed (the
 *   indexer was behind) and mined before its block are marked swept by it;
 * - a sweep the shop knows, still on its way: following it will do;
 * - a transaction the shop does not know: recorded as a sweep (SENT) with an item for each
 *   of the shop's addresses it flushed, and followed like any other, so it is confirmed by
 *   the same rule and marks deposits only by those addresses' Flushed events. One sent by
 *   someone else is marked so: the shop paid none of its gas (its fee is recorded as 0).
 */

/** Emptied addresses looked into per run (each is one eth_getLogs over its own events). */
const ADOPT_PER_RUN = 10;

/**
 * A random few (ADOPT_PER_RUN) of those to look into: addresses that stay short whatever is
 * found (an attacker's own deposit made in the flush's own transaction) can never hold the
 * others back for good.
 */
export const someOf = <T>(short: T[]): T[] => (short.length <= ADOPT_PER_RUN ? short : short.map((h) => ({ h, r: Math.random() })).sort((a, b) => a.r - b.r).slice(0, ADOPT_PER_RUN).map((x) => x.h));

/**
 * Looks into the addresses holding less than their unswept deposits; returns those now in
 * a sweep found on chain (not to be swept in this run: that sweep marks their deposits).
 */
export async function adoptFlushes(deps: SweepDeps, holdings: Holding[]): Promise<Set<string>> {
  const adopted = new Set<string>();
  // Holding less (someone flushed it), or more (someone flushed it and ETH arrived since,
  // unseen: that ETH must not be netted against deposits already moved).
  for (const h of someOf(holdings.filter((x) => x.balanceWei !== x.recordedWei))) {
    try {
      if (await adoptOne(deps, h)) adopted.add(h.address.toLowerCase());
    } catch (err) {
      // A node that limits eth_getLogs, say: the reconciler reports the empty address meanwhile.
      deps.logger.warn({ msg: 'could not look for the sweep that emptied a deposit address', deposit_address: h.address, err });
    }
  }
  return adopted;
}

/**
 * Every transaction that flushed the address since its oldest unswept deposit and is not
 * recorded yet is recorded, oldest first (each is confirmed in turn and marks what it
 * moved). With none unknown, deposits recorded after the last one, a confirmed sweep, and
 * mined before it, are marked swept by it.
 */
async function adoptOne(deps: SweepDeps, h: Holding): Promise<boolean> {
  const logs = await flushLogs(deps.chain, h.address, h.fromBlock ?? 0n, 'latest');
  const hashes = [...new Set(logs.flatMap((l) => (l.transactionHash ? [l.transactionHash.toLowerCase() as Hash] : [])))];
  const last = hashes.at(-1);
  if (!last) {
    if (h.balanceWei > h.recordedWei) return false; // more than recorded and never flushed: a deposit not indexed yet, or unseen (unseen-deposits.ts)
    deps.logger.warn({ msg: 'a deposit address holds less than its unswept deposits, and no Flushed event of it was found', deposit_address: h.address, recorded_wei: h.recordedWei.toString(), balance_wei: h.balanceWei.toString() });
    return false;
  }
  const known = new Set((await deps.db.depositSweep.findMany({ where: { txHash: { in: hashes } }, select: { txHash: true } })).map((s) => s.txHash.toLowerCase()));
  let adopted = false;
  for (const hash of hashes) if (!known.has(hash)) adopted = (await recordFoundSweep(deps, hash)) || adopted;
  if (adopted || known.size < hashes.length) return adopted;
  const sweep = await deps.db.depositSweep.findUnique({ where: { txHash: last }, include: { items: { where: { address: h.address.toLowerCase() } } } });
  if (sweep?.status === 'CONFIRMED' && sweep.blockNumber !== null && sweep.items[0]?.sweptWei?.gt(0)) {
    const marked = await markSwept(deps.db, sweep.id, h.address, sweep.blockNumber);
    if (marked > 0) deps.logger.info({ msg: 'deposits recorded after their sweep was confirmed are marked swept by it', sweep_id: sweep.id, deposit_address: h.address, deposits: marked });
  }
  return false;
}
