import type { Hash } from 'viem';
import { isStateUnavailable } from '../chain/errors.ts';
import { receiptOrNull } from '../chain/transfer-reader.ts';
import { Prisma, type Db } from '../infra/db.ts';
import type { CheckRow, Deps, PayoutVerdict, Sender } from './types.ts';

/**
 * A payout transaction replaced in its wallet (a speed-up or cancel: another transaction
 * with the same sender and nonce): whether that happened for good, which transaction did
 * it, and how the replacement takes the first one's place for its request.
 */

/** How far back the block that used a replaced transaction's nonce is looked for: by nonce counts, and block by block where the node lacks that state. */
const REPLACEMENT_SEARCH_BLOCKS = 100_000n;
const REPLACEMENT_SCAN_BLOCKS = 256n;

/**
 * Whether the transaction with this sender and nonce can never be mined: the sender's
 * nonce is used in a final block (PAYMENT_CONFIRMATIONS deep), this one having no
 * receipt (read again after the nonce, so one mined meanwhile is not taken for dropped).
 * Returns the final block it was checked at, or null while it may still be mined.
 */
export async function nonceUsedElsewhere(deps: Pick<Deps, 'chain' | 'config'>, hash: Hash, sender: Sender): Promise<bigint | null> {
  const { chain, config } = deps;
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  const final = head - BigInt(config.paymentConfirmations - 1);
  if (final < 0n) return null;
  const used = await chain.getTransactionCount({ address: sender.fromAddress as `0x${string}`, blockNumber: final });
  if (BigInt(used) <= sender.nonce) return null;
  const receipt = await receiptOrNull(chain, hash);
  return receipt === null ? final : null;
}

/**
 * The transaction that used the sender's nonce in place of `hash` (a wallet's "speed
 * up" pays the same wallet under another hash; its "cancel" sends nothing): the first
 * block whose state shows the nonce used is found by its nonce count (an exponential
 * then binary search, on a node that keeps that state), then the transaction in it.
 * Null when the node cannot say (a pruned node for old blocks).
 */
export async function replacementOf(deps: Deps, sender: Sender, final: bigint): Promise<Hash | null> {
  const { chain } = deps;
  const address = sender.fromAddress as `0x${string}`;
  const usedAt = async (block: bigint) => BigInt(await chain.getTransactionCount({ address, blockNumber: block })) > sender.nonce;
  try {
    // The nonce is used at `final`; find a block where it was not yet.
    let step = 16n;
    let low = final - step;
    while (low > 0n && (await usedAt(low))) {
      if (step > REPLACEMENT_SEARCH_BLOCKS) return null;
      step *= 2n;
      low = final - step;
    }
    if (low < 0n) low = 0n;
    let high = final; // used at high, not at low
    while (high - low > 1n) {
      const mid = (low + high) / 2n;
      if (await usedAt(mid)) high = mid;
      else low = mid;
    }
    return await inBlock(high);
  } catch (err) {
    if (!isStateUnavailable(err)) throw err;
    // A node without that state: the blocks themselves (no state needed), newest first.
    for (let n = final; n >= 0n && final - n < REPLACEMENT_SCAN_BLOCKS; n--) {
      const found = await inBlock(n);
      if (found) return found;
    }
    return null;
  }

  async function inBlock(number: bigint): Promise<Hash | null> {
    const block = await chain.getBlock({ blockNumber: number, includeTransactions: true });
    const tx = block.transactions.find((t) => t.from.toLowerCase() === sender.fromAddress && BigInt(t.nonce) === sender.nonce);
    return tx ? (tx.hash.toLowerCase() as Hash) : null;
  }
}

/**
 * A payout transaction that will never be mined because another one took its nonce: the
 * replacement is checked for the same request in its place, in one transaction with the
 * refusal of the first, so a speed-up that paid the wallet pays the request and the
 * request is never left open for a second payout while the first one's ETH went out
 * under another hash. A replacement being checked for another request (an admin gave it
 * there) is waited for; one that paid another request leaves this one. A first payout
 * sent through a contract (a multisig) carried an operation that another transaction may
 * still execute: its request stays held (`holds`) until an admin withdraws the hold.
 */
export async function followReplacement(db: Db, check: CheckRow, sender: Sender, replacement: Hash, wallets: string[]): Promise<PayoutVerdict> {
  const holds = check.toAddress !== null && !wallets.includes(check.toAddress);
  const held = holds ? `; it was sent through a contract (${check.toAddress}), whose operation another transaction may still execute: the request stays held until an admin withdraws the hold` : '';
  const replacedBy = `Replaced by ${replacement} (nonce ${sender.nonce} of ${sender.fromAddress})`;
  const refuse = async (reason: string, next?: string): Promise<PayoutVerdict> => {
    const refused = await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { status: 'REFUSED', reason, holds } });
    return refused.count === 1 ? { state: 'refused', reason, effects: next ? [{ kind: 'payout-check', checkId: next }] : [] } : { state: 'skipped' };
  };
  const holder = await db.payoutCheck.findFirst({ where: { txHash: replacement, OR: [{ status: { in: ['CHECKING', 'ACCEPTED'] } }, { deliveredAmount: { gt: 0 } }] } });
  if (holder) {
    const sameRequest = holder.cashoutId === check.cashoutId && holder.refundId === check.refundId;
    if (sameRequest) return refuse(`${replacedBy}, which is checked for this request already${held}`);
    if (holder.status === 'CHECKING') {
      const reason = `${replacedBy}, which is being checked for another request: this one waits for its verdict`;
      await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { reason } });
      return { state: 'wait', reason, retryInMs: 60_000 };
    }
    return refuse(`${replacedBy}, which paid another request${held}`);
  }
  try {
    return await db.$transaction(async (tx) => {
      const reason = `${replacedBy}: that transaction is checked as this payout instead${held}`;
      const refused = await tx.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { status: 'REFUSED', reason, holds } });
      if (refused.count !== 1) return { state: 'skipped' } as const;
      const next = await tx.payoutCheck.create({
        data: {
          txHash: replacement,
          cashoutId: check.cashoutId,
          refundId: check.refundId,
          wallet: check.wallet,
          asset: check.asset,
          expectedAmount: check.expectedAmount,
          requestedById: check.requestedById,
          fromAddress: sender.fromAddress,
          nonce: sender.nonce,
          reason: `Replaces ${check.txHash} (the same nonce)`,
        },
      });
      return { state: 'refused', reason, effects: [{ kind: 'payout-check', checkId: next.id }] } as const;
    });
  } catch (err) {
    // Given for another request meanwhile: read again on the next run.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') return { state: 'wait', reason: `${replacedBy}, which was just given for another request`, retryInMs: 5_000 };
    throw err;
  }
}

