import type { Hash } from 'viem';
import { Prisma, type DepositSweep } from '../infra/db.ts';
import { notFinalReason, readTransaction } from '../chain/transfer-reader.ts';
import { flushedBy } from '../deposits/abi.ts';
import { FOREIGN_MARK, recordFoundSweep, unaccountedFlushes, type SweepDeps } from './sweeper-found.ts';
import { confirmSweep, earlierInBlock, type SentSweep } from './sweeper-marks.ts';
import { indexerWait, unprovenReason, UNPROVEN } from './sweeper-proof.ts';
import { confirmTokenSweep } from './token-sweep-marks.ts';

/**
 * Following each sweep on its way (SENT) to its end, on chain:
 * - mined, PAYMENT_CONFIRMATIONS deep and its block canonical (the one confirmation rule,
 *   chain/transfer-reader.ts), and its block passed by the indexer, which is not halted
 *   (sweeper-proof.ts; until then it waits, saying why on its row);
 * - then, succeeded and shown to have paid the receiving address what each of its
 *   addresses flushed (sweeper-proof.ts; until then it waits with the reason, UNPROVEN
 *   first, and its deposits stay unswept): CONFIRMED, with its gas, its fee, and
 *   what each of its addresses flushed, read only from the Flushed events that address
 *   itself emitted (a log of any other address proves nothing about this one). In the
 *   same transaction each such address's unswept deposits mined before the sweep (in an
 *   earlier block, or earlier in its block) are marked swept by it (sweeper-marks.ts). An
 *   address with no Flushed event (someone swept it first) marks nothing.
 * - a token sweep (kind TOKENS): succeeded, CONFIRMED by its tokens' own Transfer logs to
 *   the receiving address, its token payments marked (token-sweep-marks.ts);
 * - reverted, as deep: FAILED with the reason; its addresses are candidates again.
 * - unknown to the node while its sender has used the nonce for something else, for
 *   DROP_AFTER_MS: DROPPED (it can never be mined); its addresses are candidates again.
 * - unknown to the node, its nonce unused, REPLACE_AFTER_MS after it was written: lost (a
 *   crash before the broadcast, a mempool that evicted it). Its addresses are candidates
 *   again and the next sweep takes its nonce: whichever of the two is mined, the other
 *   never can be, and is DROPPED by the rule above.
 * Every change is a conditional update of a row still SENT: two workers following the
 * same sweep change it once.
 */
export type { SweepDeps } from './sweeper-found.ts';
export type Followed = { confirmed: number; failed: number; dropped: number; waiting: number; lost: string[] };

/** How long a sweep the node does not know, whose nonce was used since, waits before it is DROPPED (a lagging replica may not know it yet). */
export const DROP_AFTER_MS = 5 * 60_000;
/** A sweep the node has never seen this long after its row was written, its nonce unused, is lost: its nonce and addresses are taken again. */
export const REPLACE_AFTER_MS = 5 * 60_000;
/** Sweeps followed in one run (the oldest first; those not shown to have paid last). */
const FOLLOW_PER_RUN = 100;
export { FOREIGN_MARK } from './sweeper-found.ts';

const dec = (wei: bigint) => new Prisma.Decimal(wei.toString());
const sentByOthers = (sweep: Pick<DepositSweep, 'reason'>) => sweep.reason?.startsWith(FOREIGN_MARK) ?? false;
/** A reason that keeps a found sweep's mark. */
const withMark = (sweep: Pick<DepositSweep, 'reason'>, reason: string | null) => (sentByOthers(sweep) ? (reason ? `${FOREIGN_MARK}. ${reason}` : FOREIGN_MARK) : reason);


export async function followSweeps(deps: SweepDeps, now = new Date()): Promise<Followed> {
  const counts: Followed = { confirmed: 0, failed: 0, dropped: 0, waiting: 0, lost: [] };
  // Those mined but not shown to have paid (sweeper-proof.ts) come after the others: however
  // many pile up, they never keep a sweep on its way from being followed.
  const unproven = { reason: { contains: UNPROVEN } };
  const read = (where: object, take: number) => deps.db.depositSweep.findMany({ where: { status: 'SENT', ...where }, orderBy: { createdAt: 'asc' }, take, include: { items: true } });
  const sent = await read({ OR: [{ reason: null }, { NOT: unproven }] }, FOLLOW_PER_RUN);
  if (sent.length < FOLLOW_PER_RUN) sent.push(...(await read(unproven, FOLLOW_PER_RUN - sent.length)));
  for (const sweep of sent) {
    // One sweep the node cannot serve (its trace, its receipt) waits, saying why: it never
    // keeps the others from being followed, nor the run from sweeping.
    const outcome = await followSweep(deps, sweep, now).catch(async (err: unknown) => {
      deps.logger.warn({ msg: 'could not follow a deposit sweep: it waits, read again next run', sweep_id: sweep.id, tx_hash: sweep.txHash, err });
      return waitSaying(deps, sweep, `Could not be read from the node (${String((err as Error)?.message ?? err).slice(0, 200)}): read again each run`).catch(() => 'waiting' as const);
    });
    if (outcome === 'lost') counts.lost.push(sweep.id);
    else counts[outcome]++;
    if (outcome !== 'waiting') deps.logger.info({ msg: `deposit sweep ${outcome}`, sweep_id: sweep.id, tx_hash: sweep.txHash, addresses: sweep.items.length });
  }
  return counts;
}

type Outcome = 'confirmed' | 'failed' | 'dropped' | 'waiting' | 'lost';

async function followSweep(deps: SweepDeps, sweep: SentSweep, now: Date): Promise<Outcome> {
  const hash = sweep.txHash as Hash;
  const reading = await readTransaction(deps.chain, hash);
  if (reading.state === 'unknown') return notFound(deps, sweep, now);
  if (reading.state !== 'mined' || notFinalReason(reading.tx, deps.config.paymentConfirmations)) return 'waiting';
  const receipt = await deps.chain.getTransactionReceipt({ hash });
  // Read again in between: it moved (a reorg); the next run reads it where it is.
  if (receipt.blockHash !== reading.tx.blockHash) return 'waiting';
  const mined = {
    gasUsed: receipt.gasUsed,
    feeWei: sentByOthers(sweep) ? 0n : receipt.gasUsed * receipt.effectiveGasPrice,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash.toLowerCase(),
  };
  const block = { number: receipt.blockNumber, hash: receipt.blockHash };
  const behind = await indexerWait(deps, block);
  if (behind) return waitSaying(deps, sweep, behind);
  if (!reading.tx.success) {
    const reason = `Reverted on chain in block ${mined.blockNumber} (gas used ${mined.gasUsed} of its limit ${sweep.gasLimit}); its addresses are swept again`;
    const failed = await deps.db.depositSweep.updateMany({ where: { id: sweep.id, status: 'SENT' }, data: { ...mined, feeWei: dec(mined.feeWei), status: 'FAILED', reason: withMark(sweep, reason) } });
    return failed.count > 0 ? 'failed' : 'waiting';
  }
  // A token sweep is shown by its tokens' own Transfer logs (token-sweep-marks.ts).
  if (sweep.kind === 'TOKENS') return (await confirmTokenSweep(deps.db, sweep, { ...mined, reason: withMark(sweep, null) }, receipt.logs, deps.config.receivingAddress)) ? 'confirmed' : 'waiting';
  const flushed = flushedBy(receipt.logs);
  const unproven = await unprovenReason(deps, sweep, block, flushed);
  if (unproven) return waitSaying(deps, sweep, unproven);
  const earlier = await earlierFlushReason(deps, sweep, receipt, flushed);
  if (earlier) return waitSaying(deps, sweep, earlier);
  const sameBlock = await earlierInBlock(deps, sweep, receipt);
  return (await confirmSweep(deps.db, sweep, { ...mined, reason: withMark(sweep, null) }, flushed, sameBlock)) ? 'confirmed' : 'waiting';
}

/**
 * Another flush of one of its addresses, since that address's oldest unswept deposit and
 * before this sweep, not confirmed (sweeper-found.ts): it moved some of those deposits, so
 * it is recorded (if it is not yet) and confirmed first; this sweep waits for it. Null
 * when there is none.
 */
async function earlierFlushReason(deps: SweepDeps, sweep: SentSweep, receipt: { blockNumber: bigint; transactionIndex: number }, flushed: Map<string, bigint>): Promise<string | null> {
  for (const item of sweep.items) {
    const address = item.address.toLowerCase();
    if ((flushed.get(address) ?? 0n) === 0n) continue;
    const oldest = await deps.db.payment.aggregate({ where: { depositAddress: address, asset: 'ETH', sweepId: null, status: { not: 'REJECTED' } }, _min: { blockNumber: true } });
    const from = oldest._min.blockNumber;
    if (from === null || from > receipt.blockNumber) continue;
    const others = await unaccountedFlushes(deps, address, { from, to: receipt.blockNumber, beforeIndex: receipt.transactionIndex, except: sweep.txHash });
    if (others.length === 0) continue;
    for (const hash of others) await recordFoundSweep(deps, hash);
    return `Waits for the earlier flush of ${address} in ${others[0]}, which moved deposits of it, to be confirmed first`;
  }
  return null;
}

/** A mined sweep that cannot be confirmed yet keeps `reason` on its row (said once in the log). */
async function waitSaying(deps: SweepDeps, sweep: SentSweep, reason: string): Promise<'waiting'> {
  const note = withMark(sweep, reason);
  if (sweep.reason === note) return 'waiting';
  const noted = await deps.db.depositSweep.updateMany({ where: { id: sweep.id, status: 'SENT' }, data: { reason: note } });
  if (noted.count > 0) {
    const fields = { sweep_id: sweep.id, tx_hash: sweep.txHash, reason };
    if (reason.startsWith(UNPROVEN)) deps.logger.error({ msg: 'a mined deposit sweep is not shown to have paid the receiving address: not confirmed, its deposits stay unswept', ...fields });
    else deps.logger.info({ msg: 'a mined deposit sweep waits before it is confirmed', ...fields });
  }
  return 'waiting';
}

/** Not found: lost while its nonce is unused; DROPPED once its nonce has been used by another transaction for DROP_AFTER_MS (noted on the row first). */
async function notFound(deps: SweepDeps, sweep: SentSweep, now: Date): Promise<Outcome> {
  const used = await deps.chain.getTransactionCount({ address: sweep.fromAddress as Hash, blockTag: 'latest' });
  if (used <= sweep.nonce) return now.getTime() - sweep.createdAt.getTime() > REPLACE_AFTER_MS ? 'lost' : 'waiting';
  const note = withMark(sweep, `Not found by the node, and its sender has used nonce ${sweep.nonce} since`);
  if (sweep.reason !== note) {
    await deps.db.depositSweep.updateMany({ where: { id: sweep.id, status: 'SENT' }, data: { reason: note } });
    return 'waiting';
  }
  if (now.getTime() - sweep.updatedAt.getTime() < DROP_AFTER_MS) return 'waiting';
  const reason = withMark(sweep, `Never mined: its nonce ${sweep.nonce} was used by another transaction; its addresses are swept again`);
  const dropped = await deps.db.depositSweep.updateMany({ where: { id: sweep.id, status: 'SENT', reason: note }, data: { status: 'DROPPED', reason } });
  return dropped.count > 0 ? 'dropped' : 'waiting';
}
