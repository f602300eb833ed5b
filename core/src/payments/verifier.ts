import { TransactionNotFoundError, TransactionReceiptNotFoundError, type Hash, type PublicClient } from 'viem';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db.ts';
import type { Logger } from '../logger.ts';
import { tagOf } from './amounts.ts';
import { indexerHalt } from './indexer.ts';
import { countTransfer, uncountPayment, type CountOutcome } from './settle.ts';

/**
 * Verifies one transfer on chain, whoever reported or found it. The rules (DESIGN.md
 * section 5): chain 1, receipt succeeded, sent to the receiving address, enough
 * confirmations, hash not already counted, mined after the order was placed. The order
 * is the one whose tag the value carries; the report only said where to look.
 */
export type VerifyDeps = { config: AppConfig; db: Db; chain: PublicClient; logger: Logger; currentAnswer: () => Promise<bigint> };

export type VerifyResult =
  | { state: 'final'; status: 'COUNTED' | 'REJECTED' | 'UNRESOLVED' | 'LATE'; orderId?: string; paidNow?: boolean; reason?: string }
  | { state: 'wait'; reason: string; retryInMs: number };

const NOT_FOUND_GIVE_UP_MS = 60 * 60_000;
const NOT_MINED_GIVE_UP_MS = 24 * 60 * 60_000;

/**
 * How long to wait before looking again for a reported hash the node does not know:
 * every 3 s while the report is fresh (a wallet's transaction reaches the node within
 * seconds), then a quarter of its age, at most a minute. A made-up hash costs the node
 * about 75 lookups over the hour before it is given up, not 1,200.
 */
export function notFoundRetryMs(ageMs: number): number {
  return Math.min(60_000, Math.max(3_000, Math.round(ageMs / 4)));
}

async function reject(db: Db, paymentId: string, reason: string): Promise<VerifyResult> {
  await db.payment.updateMany({ where: { id: paymentId, status: { in: ['PENDING', 'UNRESOLVED'] } }, data: { status: 'REJECTED', reason } });
  return { state: 'final', status: 'REJECTED', reason };
}

export async function verifyPayment(deps: VerifyDeps, paymentId: string, now = new Date()): Promise<VerifyResult> {
  const { db, chain, config } = deps;
  const payment = await db.payment.findUnique({ where: { id: paymentId } });
  if (!payment) return { state: 'final', status: 'REJECTED', reason: 'unknown payment' };
  if (payment.status === 'REJECTED' || payment.status === 'LATE') return { state: 'final', status: payment.status, reason: payment.reason ?? undefined };
  // The node is not on the chain the shop follows: it proves nothing either way.
  const halted = await indexerHalt(db);
  if (halted) return { state: 'wait', reason: `verification halted: ${halted.reason}`, retryInMs: 30_000 };
  const hash = payment.txHash as Hash;
  const age = now.getTime() - payment.createdAt.getTime();

  const tx = await chain.getTransaction({ hash }).catch((err: unknown) => {
    if (err instanceof TransactionNotFoundError) return null;
    throw err;
  });
  if (!tx) {
    if (payment.status === 'COUNTED') {
      await uncountPayment(db, payment.id, 'Removed from the chain by a reorganization; waiting for it to be mined again');
      return { state: 'wait', reason: 'removed by a reorg', retryInMs: 2_000 };
    }
    if (age > NOT_FOUND_GIVE_UP_MS) return reject(db, payment.id, 'Transaction not found on chain');
    return { state: 'wait', reason: 'transaction not found yet', retryInMs: notFoundRetryMs(age) };
  }
  if (tx.chainId !== undefined && tx.chainId !== config.chainId) {
    return reject(db, payment.id, `Not an Ethereum mainnet transaction (chain id ${tx.chainId})`);
  }
  const receipt = await chain.getTransactionReceipt({ hash }).catch((err: unknown) => {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    throw err;
  });
  if (!receipt) {
    if (payment.status === 'COUNTED') {
      await uncountPayment(db, payment.id, 'Removed from its block by a reorganization; waiting for it to be mined again');
    }
    if (age > NOT_MINED_GIVE_UP_MS) return reject(db, payment.id, 'Transaction was never mined');
    return { state: 'wait', reason: 'waiting to be mined', retryInMs: 2_000 };
  }
  if (receipt.status !== 'success') return reject(db, payment.id, 'Transaction failed (reverted) on chain');
  if (!tx.to || tx.to.toLowerCase() !== config.receivingAddress.toLowerCase()) {
    return reject(db, payment.id, "Not sent to the shop's receiving address");
  }

  const head = await chain.getBlockNumber({ cacheTime: 0 });
  const confirmations = Number(head - receipt.blockNumber + 1n);
  if (payment.status === 'COUNTED') {
    // Already counted: only follow its block (a reorg may have moved it).
    if (payment.blockHash !== receipt.blockHash) {
      await db.payment.update({ where: { id: payment.id }, data: { blockHash: receipt.blockHash, blockNumber: receipt.blockNumber, confirmations } });
    }
    return { state: 'final', status: 'COUNTED', orderId: payment.orderId ?? undefined };
  }

  const tag = tagOf(tx.value);
  const order = tag > 0 ? await db.order.findFirst({ where: { paymentTag: tag }, select: { id: true, status: true, placedAtBlock: true } }) : null;
  const common = {
    fromAddress: tx.from.toLowerCase(),
    valueWei: tx.value.toString(),
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    confirmations,
  };
  if (!order) {
    await db.payment.update({
      where: { id: payment.id },
      data: { ...common, orderId: null, status: 'UNRESOLVED', reason: 'No open order matches this amount; an admin will assign or refund it' },
    });
    return { state: 'final', status: 'UNRESOLVED' };
  }
  await db.payment.update({ where: { id: payment.id }, data: { ...common, orderId: order.id } });
  if (confirmations < config.paymentConfirmations) {
    await db.order.updateMany({ where: { id: order.id, status: { in: ['PENDING_PAYMENT', 'UNDERPAID'] } }, data: { status: 'VERIFYING' } });
    return { state: 'wait', reason: `${confirmations}/${config.paymentConfirmations} confirmations`, retryInMs: 1_000 };
  }
  if (order.placedAtBlock !== null && receipt.blockNumber <= order.placedAtBlock) {
    return reject(db, payment.id, 'Mined before the order was placed');
  }
  const block = await chain.getBlock({ blockNumber: receipt.blockNumber });
  if (block.hash !== receipt.blockHash) return { state: 'wait', reason: 'block changed under us (reorg)', retryInMs: 1_000 };
  const outcome: CountOutcome = await countTransfer(db, config, {
    paymentId: payment.id,
    orderId: order.id,
    currentAnswer: deps.currentAnswer,
    now,
    transfer: {
      valueWei: tx.value,
      from: tx.from,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      blockTimestamp: new Date(Number(block.timestamp) * 1000),
      confirmations,
    },
  });
  switch (outcome.kind) {
    case 'counted':
      return { state: 'final', status: 'COUNTED', orderId: order.id, paidNow: outcome.paidNow };
    case 'already':
      return { state: 'final', status: 'COUNTED', orderId: order.id };
    case 'late':
      return { state: 'final', status: 'LATE', orderId: order.id, reason: outcome.reason };
    case 'rejected':
      return reject(db, payment.id, outcome.reason);
  }
}
