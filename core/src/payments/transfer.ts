import { TransactionNotFoundError, TransactionReceiptNotFoundError, type Hash, type PublicClient } from 'viem';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db.ts';
import type { Tracer } from '../chain/trace.ts';
import { indexerHalt } from './indexer.ts';
import { UNTRACEABLE } from './settle.ts';

/**
 * What the chain says about one transaction, read the same way for the worker's
 * verification and an admin's assignment (one home for the checks of DESIGN.md section
 * 5: chain 1, receipt succeeded, sent to the receiving address, confirmations, the block
 * still canonical). Nothing here writes; settle.ts decides what to do with it.
 */
export type MinedTransfer = {
  /** Who sent the value: the transaction's sender, or the contract (a smart wallet) whose (first) internal call paid. */
  from: string;
  /**
   * The one address that sent all of it from its own funds (trace.ts, Delivery.payer): the
   * transaction's sender for a plain transfer; null when no single address did. Only it
   * may sign a claim or a refund's new wallet, and only it is refunded by default.
   */
  payer: string | null;
  /** The receiving address when value reached it (top-level or internal), else the transaction's recipient. */
  to: string | null;
  /** The value that reached the receiving address (the transaction's value when it did not). */
  valueWei: bigint;
  /** It arrived through internal calls (a smart-contract wallet), read from the node's traces. */
  internal: boolean;
  /** The transaction's recipient is another address and the node could not trace what it passed on. */
  untraced: boolean;
  /** The account that signed the transaction (the shop's own address for its own transactions). */
  sender: string;
  /** In how many calls the value reached the shop: more than one (a batch) cannot be told apart by tag. */
  calls: number;
  chainId: number | undefined;
  success: boolean;
  blockNumber: bigint;
  blockHash: string;
  blockTimestamp: Date;
  confirmations: number;
  /** The chain still has this transaction's block at its height. */
  canonical: boolean;
};

export type TransferReading =
  | { state: 'halted'; reason: string }
  | { state: 'unknown' }
  | { state: 'pending'; from: string; to: string | null; valueWei: bigint }
  /** The node says it is mined but serves no receipt yet (a replica catching up). */
  | { state: 'receipt-missing' }
  | { state: 'mined'; transfer: MinedTransfer };

type Deps = { db: Db; chain: PublicClient; config: AppConfig; tracer: Tracer };

export async function readTransfer({ db, chain, config, tracer }: Deps, hash: string): Promise<TransferReading> {
  // A node that is not on the shop's chain proves nothing either way.
  // The halt flag, the transaction and its receipt are read at once (one round trip);
  // while halted, what the node said (or failed to say) does not matter.
  const [halted, txRead, receiptRead] = await Promise.allSettled([
    indexerHalt(db),
    chain.getTransaction({ hash: hash as Hash }).catch((err: unknown) => {
      if (err instanceof TransactionNotFoundError) return null;
      throw err;
    }),
    chain.getTransactionReceipt({ hash: hash as Hash }).catch((err: unknown) => {
      if (err instanceof TransactionReceiptNotFoundError) return null;
      throw err;
    }),
  ]);
  if (halted.status === 'rejected') throw halted.reason;
  if (halted.value) return { state: 'halted', reason: halted.value.reason };
  if (txRead.status === 'rejected') throw txRead.reason;
  if (receiptRead.status === 'rejected') throw receiptRead.reason;
  const [tx, receipt] = [txRead.value, receiptRead.value];
  if (!tx) return { state: 'unknown' };
  if (!receipt) return tx.blockHash ? { state: 'receipt-missing' } : { state: 'pending', from: tx.from, to: tx.to ?? null, valueWei: tx.value };
  const [head, block] = await Promise.all([chain.getBlockNumber({ cacheTime: 0 }), chain.getBlock({ blockNumber: receipt.blockNumber })]);
  // Sent to another address (a smart-contract wallet, say): what did it pass on to the shop?
  const receiving = config.receivingAddress.toLowerCase();
  const direct = tx.to?.toLowerCase() === receiving;
  const delivered = !direct && receipt.status === 'success' ? await tracer.transaction(hash, receiving) : undefined;
  const internal = delivered !== undefined && delivered !== null && delivered.valueWei > 0n;
  return {
    state: 'mined',
    transfer: {
      from: internal ? delivered.from || tx.from : tx.from,
      payer: internal ? delivered.payer : direct ? tx.from : null,
      to: internal ? receiving : (tx.to ?? null),
      valueWei: internal ? delivered.valueWei : tx.value,
      internal,
      untraced: delivered === null,
      sender: tx.from,
      calls: internal ? delivered.calls : 1,
      chainId: tx.chainId,
      success: receipt.status === 'success',
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      blockTimestamp: new Date(Number(block.timestamp) * 1000),
      confirmations: Number(head - receipt.blockNumber + 1n),
      canonical: block.hash === receipt.blockHash,
    },
  };
}

/** Why a mined transaction moved no value to the shop (it can never count), or null. */
export function noValueReason(t: MinedTransfer, config: AppConfig): string | null {
  if (t.chainId !== undefined && t.chainId !== config.chainId) return `Not an Ethereum mainnet transaction (chain id ${t.chainId})`;
  if (!t.success) return 'Transaction failed (reverted) on chain';
  if (t.sender.toLowerCase() === config.receivingAddress.toLowerCase()) return "Sent by the shop's own address: its own money, not a payment";
  if (!t.to || t.to.toLowerCase() !== config.receivingAddress.toLowerCase()) return t.untraced ? UNTRACEABLE : "Not sent to the shop's receiving address";
  if (t.valueWei === 0n) return 'It moved no ETH to the shop';
  return null;
}

/** Why a transfer that reached the shop cannot be counted yet, or null. */
export function notYetReason(t: MinedTransfer, config: AppConfig): string | null {
  if (t.confirmations < config.paymentConfirmations) return `It has ${t.confirmations} of ${config.paymentConfirmations} confirmations`;
  if (!t.canonical) return 'Its block is being reorganized';
  return null;
}
