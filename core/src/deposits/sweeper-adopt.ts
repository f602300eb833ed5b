import type { Hash } from 'viem';
import { Prisma } from '../db.ts';
import { flushedBy, flushedEvent } from './abi.ts';
import type { Holding } from './sweeper-candidates.ts';
import { markSwept } from './sweeper-marks.ts';
import { FOREIGN_MARK, type SweepDeps } from './sweeper-verify.ts';

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
 * Looks into the addresses holding less than their unswept deposits; returns those now in
 * a sweep found on chain (not to be swept in this run: that sweep marks their deposits).
 */
export async function adoptFlushes(deps: SweepDeps, holdings: Holding[]): Promise<Set<string>> {
  const adopted = new Set<string>();
  // A random few each run: addresses that stay short whatever is found (an attacker's own
  // deposit made in the flush's own transaction) can never hold the others back for good.
  // Holding less (someone flushed it), or more (someone flushed it and ETH arrived since,
  // unseen: that ETH must not be netted against deposits already moved).
  const short = holdings.filter((x) => x.balanceWei !== x.recordedWei);
  const picked = short.length <= ADOPT_PER_RUN ? short : short.map((h) => ({ h, r: Math.random() })).sort((a, b) => a.r - b.r).slice(0, ADOPT_PER_RUN).map((x) => x.h);
  for (const h of picked) {
    try {
      if (await adoptOne(deps, h)) adopted.add(h.address.toLowerCase());
    } catch (err) {
      // A node that limits eth_getLogs, say: the reconciler reports the empty address meanwhile.
      deps.logger.warn({ msg: 'could not look for the sweep that emptied a deposit address', deposit_address: h.address, err });
    }
  }
  return adopted;
}

async function adoptOne(deps: SweepDeps, h: Holding): Promise<boolean> {
  const logs = await deps.chain.getLogs({ address: h.address, event: flushedEvent, fromBlock: h.fromBlock ?? 0n, toBlock: 'latest' });
  const last = logs.at(-1);
  if (!last?.transactionHash) {
    if (h.balanceWei > h.recordedWei) return false; // more than recorded and never flushed: a deposit not indexed yet, or unseen (unseen-deposits.ts)
    deps.logger.warn({ msg: 'a deposit address holds less than its unswept deposits, and no Flushed event of it was found', deposit_address: h.address, recorded_wei: h.recordedWei.toString(), balance_wei: h.balanceWei.toString() });
    return false;
  }
  const hash = last.transactionHash.toLowerCase() as Hash;
  const known = await deps.db.depositSweep.findUnique({ where: { txHash: hash }, include: { items: { where: { address: h.address.toLowerCase() } } } });
  if (known) {
    const item = known.items[0];
    if (known.status === 'CONFIRMED' && known.blockNumber !== null && item?.sweptWei?.gt(0)) {
      const marked = await markSwept(deps.db, known.id, h.address, known.blockNumber);
      if (marked > 0) deps.logger.info({ msg: 'deposits recorded after their sweep was confirmed are marked swept by it', sweep_id: known.id, deposit_address: h.address, deposits: marked });
    }
    return false;
  }
  return recordFoundSweep(deps, hash);
}

/** Records a transaction that flushed the shop's deposit addresses as a sweep to follow. */
async function recordFoundSweep(deps: SweepDeps, hash: Hash): Promise<boolean> {
  const [tx, receipt] = await Promise.all([deps.chain.getTransaction({ hash }), deps.chain.getTransactionReceipt({ hash })]);
  const flushed = flushedBy(receipt.logs);
  const ours = await deps.db.order.findMany({ where: { depositAddress: { in: [...flushed.keys()] } }, select: { depositAddress: true } });
  const items = ours.map((o) => ({ address: (o.depositAddress as string).toLowerCase(), expectedWei: new Prisma.Decimal((flushed.get((o.depositAddress as string).toLowerCase()) ?? 0n).toString()) }));
  if (items.length === 0) return false;
  const from = tx.from.toLowerCase();
  const foreign = from !== deps.config.sweeperAddress;
  try {
    await deps.db.depositSweep.create({
      data: {
        txHash: hash,
        fromAddress: from,
        nonce: tx.nonce,
        gasLimit: tx.gas,
        maxFeePerGasWei: new Prisma.Decimal((tx.maxFeePerGas ?? tx.gasPrice ?? 0n).toString()),
        expectedWei: items.reduce((sum, i) => sum.plus(i.expectedWei), new Prisma.Decimal(0)),
        reason: foreign ? `${FOREIGN_MARK} (${from}): found on chain` : 'Found on chain: sent by the sweeper, its row not written before (an external signer, a crash)',
        items: { create: items },
      },
    });
  } catch (err) {
    // Another worker recorded it first.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') return false;
    throw err;
  }
  deps.logger.warn({ msg: 'a sweep the shop did not send emptied its deposit addresses: recorded, and followed like its own', tx_hash: hash, from_address: from, addresses: items.length });
  return true;
}
