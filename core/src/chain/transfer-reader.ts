import { TransactionNotFoundError, TransactionReceiptNotFoundError, type Hash, type Log, type PublicClient } from 'viem';

/**
 * What the chain says about one transaction: mined or not, in which block, how final,
 * read the same way for a payment to the shop and for the shop's own payouts (what it
 * delivered is its rail's to read: core/src/rails/). Nothing here writes or decides: the
 * payments and payouts modules judge what it read. The confirmation rule lives here, once.
 */

/** One transaction as mined: what it carried at its top level, its block, and how final that block is. */
export type MinedTransaction = {
  from: string;
  to: string | null;
  valueWei: bigint;
  chainId: number | undefined;
  success: boolean;
  blockNumber: bigint;
  blockHash: string;
  blockTimestamp: Date;
  confirmations: number;
  /** The chain still has this transaction's block at its height. */
  canonical: boolean;
};

/** What the node says of one transaction, before anyone asks where its value went. */
export type TransactionReading =
  | { state: 'unknown' }
  | { state: 'pending'; from: string; to: string | null; valueWei: bigint }
  /** The node says it is mined but serves no receipt yet (a replica catching up). */
  | { state: 'receipt-missing'; from: string; to: string | null; valueWei: bigint }
  /** `logs`: its receipt's, the receipt judged (a token rail reads what it delivered in them). */
  | { state: 'mined'; tx: MinedTransaction; logs: Log[] };

/** A transaction the node does not know is null, not an error. */
export function transactionOrNull(chain: PublicClient, hash: Hash) {
  return chain.getTransaction({ hash }).catch((err: unknown) => {
    if (err instanceof TransactionNotFoundError) return null;
    throw err;
  });
}

/** A receipt the node does not have (not mined, or not served yet) is null, not an error. */
export function receiptOrNull(chain: PublicClient, hash: Hash) {
  return chain.getTransactionReceipt({ hash }).catch((err: unknown) => {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    throw err;
  });
}

/** How many confirmations a transaction mined in `blockNumber` has at `head` (its own block counts as one). */
export const confirmationsAt = (head: bigint, blockNumber: bigint): number => Number(head - blockNumber + 1n);

/**
 * Why a mined transaction cannot be relied on yet, or null: fewer confirmations than
 * `required` (PAYMENT_CONFIRMATIONS, for payments and payouts alike), or its block is
 * being reorganized.
 */
export function notFinalReason(t: { confirmations: number; canonical: boolean }, required: number): string | null {
  if (t.confirmations < required) return `It has ${t.confirmations} of ${required} confirmations`;
  if (!t.canonical) return 'Its block is being reorganized';
  return null;
}

/**
 * The transaction and its receipt, read at once (one round trip), then the head and its
 * block: the one reading of a transaction that payments (a rail's readTransfer) and the shop's
 * payouts (payouts/verify-payout.ts) both judge. `blockHint`: the block it was last seen
 * mined in (a payment waiting for its confirmations): the head and that block are asked
 * with the transaction, all in one round trip, and the block is asked again only when
 * the receipt names another (then the head is asked again with it).
 */
export async function readTransaction(chain: PublicClient, hash: Hash, opts: { blockHint?: bigint | null } = {}): Promise<TransactionReading> {
  const hint = opts.blockHint ?? null;
  const [tx, receipt, early] = await Promise.all([
    transactionOrNull(chain, hash),
    receiptOrNull(chain, hash),
    hint === null ? null : Promise.all([chain.getBlockNumber({ cacheTime: 0 }), chain.getBlock({ blockNumber: hint }).catch(() => null)]),
  ]);
  if (!tx) return { state: 'unknown' };
  const top = { from: tx.from, to: tx.to ?? null, valueWei: tx.value };
  if (!receipt) return tx.blockHash ? { state: 'receipt-missing', ...top } : { state: 'pending', ...top };
  // The hinted block is the receipt's (same hash: the head beside it is of a fork that
  // held the transaction there), or the head is asked again with the receipt's block: a
  // head read beside a receipt that moved may be of the fork it left, a longer one.
  const hinted = early?.[1]?.number === receipt.blockNumber && early[1].hash === receipt.blockHash ? ([early[0], early[1]] as const) : null;
  const [head, block] = hinted ?? (await Promise.all([chain.getBlockNumber({ cacheTime: 0 }), chain.getBlock({ blockNumber: receipt.blockNumber })]));
  return {
    state: 'mined',
    tx: {
      ...top,
      chainId: tx.chainId,
      success: receipt.status === 'success',
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      blockTimestamp: new Date(Number(block.timestamp) * 1000),
      confirmations: confirmationsAt(head, receipt.blockNumber),
      canonical: block.hash === receipt.blockHash,
    },
    logs: receipt.logs,
  };
}
