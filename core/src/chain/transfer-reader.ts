import { TransactionNotFoundError, TransactionReceiptNotFoundError, type Hash, type PublicClient } from 'viem';
import { deliveryFromOthers, type OwnSenders, type Tracer } from './trace.ts';

/**
 * What the chain says about one transaction and the value it delivered to one address
 * (top-level or through internal calls), read the same way for a payment to the shop and
 * for the shop's own payouts. Nothing here writes or decides: the payments and payouts
 * modules judge what it read. The confirmation rule lives here, once.
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

/**
 * A mined transaction read for what it delivered to one address: the transaction's
 * fields, with `from`, `to` and `valueWei` read as that delivery.
 */
export type MinedTransfer = MinedTransaction & {
  /** Who sent the value: the transaction's sender, or the contract (a smart wallet) whose (first) internal call paid. */
  from: string;
  /**
   * The one address that sent all of it from its own funds (trace.ts, Delivery.payer): the
   * transaction's sender for a plain transfer; null when no single address did. Only it
   * may sign a claim or a refund's new wallet, and only it is refunded by default.
   */
  payer: string | null;
  /** The address when value reached it (top-level or internal), else the transaction's recipient. */
  to: string | null;
  /** The value that reached the address (the transaction's value when it did not). */
  valueWei: bigint;
  /** It arrived through internal calls (a smart-contract wallet), read from the node's traces. */
  internal: boolean;
  /** The transaction's recipient is another address and the node could not trace what it passed on. */
  untraced: boolean;
  /** The account that signed the transaction. */
  sender: string;
  /** In how many calls the value reached the address: more than one (a batch) cannot be told apart by tag. */
  calls: number;
};

export type TransferReading =
  | { state: 'unknown' }
  | { state: 'pending'; from: string; to: string | null; valueWei: bigint }
  /** The node says it is mined but serves no receipt yet (a replica catching up). */
  | { state: 'receipt-missing' }
  | { state: 'mined'; transfer: MinedTransfer };

/** What the node says of one transaction, before anyone asks where its value went. */
export type TransactionReading =
  | { state: 'unknown' }
  | { state: 'pending'; from: string; to: string | null; valueWei: bigint }
  /** The node says it is mined but serves no receipt yet (a replica catching up). */
  | { state: 'receipt-missing'; from: string; to: string | null; valueWei: bigint }
  | { state: 'mined'; tx: MinedTransaction };

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
 * block: the one reading of a transaction that payments (readTransfer) and the shop's
 * payouts (payouts/verify-payout.ts) both judge.
 */
export async function readTransaction(chain: PublicClient, hash: Hash): Promise<TransactionReading> {
  const [tx, receipt] = await Promise.all([transactionOrNull(chain, hash), receiptOrNull(chain, hash)]);
  if (!tx) return { state: 'unknown' };
  const top = { from: tx.from, to: tx.to ?? null, valueWei: tx.value };
  if (!receipt) return tx.blockHash ? { state: 'receipt-missing', ...top } : { state: 'pending', ...top };
  const [head, block] = await Promise.all([chain.getBlockNumber({ cacheTime: 0 }), chain.getBlock({ blockNumber: receipt.blockNumber })]);
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
  };
}

/**
 * readTransaction, and what the transaction delivered to `address` (top-level, or through
 * internal calls, traced). Calls made by `ownSenders` (the shop's deposit forwarders
 * flushing a sweep) deliver the shop's own money, never a payment: left out.
 */
export async function readTransfer(
  { chain, tracer, ownSenders }: { chain: PublicClient; tracer: Tracer; ownSenders?: OwnSenders },
  hash: string,
  address: string,
): Promise<TransferReading> {
  const reading = await readTransaction(chain, hash as Hash);
  if (reading.state === 'unknown' || reading.state === 'receipt-missing') return { state: reading.state };
  if (reading.state === 'pending') return { state: 'pending', from: reading.from, to: reading.to, valueWei: reading.valueWei };
  const { tx } = reading;
  // Sent to another address (a smart-contract wallet, say): what did it pass on to `address`?
  const target = address.toLowerCase();
  const direct = tx.to?.toLowerCase() === target;
  const traced = !direct && tx.success ? await tracer.transaction(hash, target) : undefined;
  const delivered = traced ? ((await deliveryFromOthers(traced, ownSenders)) ?? { ...traced, valueWei: 0n, parts: [], calls: 0 }) : traced;
  const internal = delivered !== undefined && delivered !== null && delivered.valueWei > 0n;
  return {
    state: 'mined',
    transfer: {
      ...tx,
      from: internal ? delivered.from || tx.from : tx.from,
      payer: internal ? delivered.payer : direct ? tx.from : null,
      to: internal ? target : tx.to,
      valueWei: internal ? delivered.valueWei : tx.valueWei,
      internal,
      untraced: delivered === null,
      sender: tx.from,
      calls: internal ? delivered.calls : 1,
    },
  };
}
