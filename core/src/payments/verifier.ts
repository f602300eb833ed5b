import type { PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import type { Db } from '../infra/db.ts';
import type { Effect } from '../infra/effects.ts';
import type { Logger } from '../infra/logger.ts';
import type { Tracer } from '../chain/trace.ts';
import type { AssetCode } from '../contract/json-parts.ts';
import { NEVER_MINED, NOT_FOUND } from './reasons.ts';
import { readPayment } from './payment-locks.ts';
import { settleTransfer } from './settle.ts';
import { followBlock, noteWaitingTransfer, rejectTransfer, transferGone } from './transfer-states.ts';
import { noValueReason, notYetReason, readPaymentTransfer } from './transfer.ts';

/**
 * Verifies one transfer on chain, whoever reported or found it: reads it
 * (transfer.ts), and hands every change to settle.ts, which makes it under the payment's
 * row lock. The order is the one whose tag the value carries; a report only said where
 * to look.
 */
export type VerifyDeps = { config: AppConfig; db: Db; chain: PublicClient; tracer: Tracer; logger: Logger; currentAnswer: (asset: AssetCode) => Promise<bigint> };

export type VerifyResult =
  | { state: 'final'; status: 'COUNTED' | 'REJECTED' | 'UNRESOLVED' | 'LATE' | 'REFUNDED'; orderId?: string; effects?: Effect[]; reason?: string }
  /** `atBlock`: the block that may end the wait (the watcher wakes the job then; `retryInMs` is the fallback). */
  | { state: 'wait'; reason: string; retryInMs: number; atBlock?: bigint | 'next' };

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

export async function verifyPayment(deps: VerifyDeps, paymentId: string, now = new Date()): Promise<VerifyResult> {
  const { db, config } = deps;
  const payment = await readPayment(db, paymentId);
  if (!payment) return { state: 'final', status: 'REJECTED', reason: 'unknown payment' };
  if (payment.status === 'REJECTED' || payment.status === 'REFUNDED') return { state: 'final', status: payment.status, reason: payment.reason ?? undefined };
  // An inflow no transaction explains has no transaction to verify: it waits for an admin.
  if (payment.source === 'INFLOW') return { state: 'final', status: payment.status === 'PENDING' ? 'UNRESOLVED' : payment.status, reason: payment.reason ?? undefined };
  const age = now.getTime() - payment.createdAt.getTime();
  const settled = payment.status === 'COUNTED' || payment.status === 'UNRESOLVED' || payment.status === 'LATE';

  const reading = await readPaymentTransfer(deps, payment);
  switch (reading.state) {
    case 'halted':
      return { state: 'wait', reason: `verification halted: ${reading.reason}`, retryInMs: 30_000 };
    case 'unknown':
      if (settled) {
        await transferGone(db, payment.id, 'Removed from the chain by a reorganization; waiting for it to be mined again');
        return { state: 'wait', reason: 'removed by a reorg', retryInMs: 2_000 };
      }
      if (age > NOT_FOUND_GIVE_UP_MS) return reject(deps, payment.id, NOT_FOUND);
      return { state: 'wait', reason: 'transaction not found yet', retryInMs: notFoundRetryMs(age) };
    case 'receipt-missing':
      return { state: 'wait', reason: 'the node has not served its receipt yet', retryInMs: 2_000 };
    case 'pending':
      if (settled) await transferGone(db, payment.id, 'Removed from its block by a reorganization; waiting for it to be mined again');
      else if (age > NOT_MINED_GIVE_UP_MS) return reject(deps, payment.id, NEVER_MINED);
      await noteWaitingTransfer(db, payment.id, { valueWei: reading.valueWei, from: reading.from, pending: true }, now);
      return { state: 'wait', reason: 'waiting to be mined', retryInMs: 2_000, atBlock: 'next' };
  }

  const t = reading.transfer;
  if (settled && t.untraced) {
    // Settled when it could be traced: a node that cannot trace it now proves nothing
    // against it. It stays as it is (value that reached the shop is never rejected).
    deps.logger.warn({ paymentId: payment.id, txHash: payment.txHash }, 'a settled transfer through a contract could not be traced again; left as it is');
    return { state: 'final', status: payment.status as 'COUNTED' | 'UNRESOLVED' | 'LATE', orderId: payment.orderId ?? undefined, reason: payment.reason ?? undefined };
  }
  const noValue = noValueReason(t, config, payment);
  if (noValue) {
    // Re-mined after a reorg as a transaction that moves nothing (say, reverted): out of its order first.
    if (settled) await transferGone(db, payment.id, noValue);
    return reject(deps, payment.id, noValue);
  }
  const notYet = notYetReason(t, config);
  if (settled) {
    // Already settled: follow its block when a reorg moved it. A counted transfer that
    // moved to a block not yet confirmed (or not canonical) counts again only once it is.
    if (payment.blockHash !== t.blockHash) {
      // Re-mined delivering another amount (an internal payment depends on the state it
      // ran against): it is a new transfer, verified from the start.
      if (payment.amount !== null && payment.amount.toFixed(0) !== t.valueWei.toString()) {
        await transferGone(db, payment.id, 'Mined again by a reorganization, delivering another amount; verified again');
        return { state: 'wait', reason: 're-mined with another value', retryInMs: 1_000 };
      }
      if (notYet && payment.status === 'COUNTED') {
        await transferGone(db, payment.id, `Moved to another block by a reorganization; ${notYet.toLowerCase()}`);
        return { state: 'wait', reason: notYet, retryInMs: 1_000 };
      }
      if (notYet) return { state: 'wait', reason: notYet, retryInMs: 1_000, atBlock: finalAt(t, config) };
      await followBlock(db, payment.id, t);
    }
    return { state: 'final', status: payment.status as 'COUNTED' | 'UNRESOLVED' | 'LATE', orderId: payment.orderId ?? undefined, reason: payment.reason ?? undefined };
  }
  if (notYet) {
    await noteWaitingTransfer(db, payment.id, {
      valueWei: t.valueWei,
      from: t.from,
      pending: false,
      calls: t.calls,
      block: { number: t.blockNumber, hash: t.blockHash, confirmations: t.confirmations },
    });
    return { state: 'wait', reason: notYet, retryInMs: 1_000, atBlock: finalAt(t, config) };
  }
  const outcome = await settleTransfer(db, config, { paymentId: payment.id, transfer: t, currentAnswer: deps.currentAnswer, now });
  switch (outcome.kind) {
    case 'counted':
      return { state: 'final', status: 'COUNTED', orderId: outcome.orderId, effects: outcome.effects };
    case 'already':
      return { state: 'final', status: 'COUNTED', orderId: outcome.orderId ?? undefined };
    case 'late':
      return { state: 'final', status: 'LATE', orderId: outcome.orderId, reason: outcome.reason };
    case 'unresolved':
      return { state: 'final', status: 'UNRESOLVED', reason: outcome.reason };
    case 'refused':
      return { state: 'final', status: 'REFUNDED', reason: outcome.reason };
  }
}

/** The head at which a transfer has its confirmations (the next block when it has them but its block is being reorganized). */
function finalAt(t: { blockNumber: bigint; confirmations: number }, config: AppConfig): bigint | 'next' {
  return t.confirmations < config.paymentConfirmations ? t.blockNumber + BigInt(config.paymentConfirmations - 1) : 'next';
}

async function reject(deps: VerifyDeps, paymentId: string, reason: string): Promise<VerifyResult> {
  await rejectTransfer(deps.db, paymentId, reason);
  return { state: 'final', status: 'REJECTED', reason };
}
