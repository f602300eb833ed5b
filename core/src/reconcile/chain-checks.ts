import type { PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import type { Db } from '../infra/db.ts';
import { indexerHalt } from '../chain/cursor.ts';
import { confirmationsAt } from '../chain/transfer-reader.ts';
import type { Add } from './subjects.ts';

/** A confirmed transfer still PENDING this long after it was last looked at is stuck. */
export const STUCK_AFTER_MS = 10 * 60_000;

/** How many blocks back from the head counted transfers are checked against the chain (older ones are final). */
export const RECONCILE_BLOCK_WINDOW = 2_000;

type Deps = { db: Db; chain: PublicClient; config: AppConfig };

/** The hash of each block number on the node's canonical chain (null above the head, or not found), asked once per number. */
export type BlockHashes = Map<bigint, string | null>;

export async function readHashes(deps: Pick<Deps, 'chain'>, hashes: BlockHashes, numbers: Iterable<bigint>, head: bigint): Promise<void> {
  for (const n of new Set(numbers)) {
    if (!hashes.has(n)) hashes.set(n, n > head ? null : ((await deps.chain.getBlock({ blockNumber: n }).catch(() => null))?.hash ?? null));
  }
}

const offChain = (onChain: string | null | undefined) => (onChain ? `now ${onChain}` : 'not on the chain');

/**
 * The checks that ask the node: counted transfers, accepted payouts and refunded
 * transfers still on the canonical chain at their recorded blocks (within `blockWindow`
 * blocks of the newest: older ones are final, so the cost is the window's, not the
 * history's), and transfers mined long enough ago that nothing settled.
 */
export async function checkChain(
  deps: Deps,
  opts: { blockWindow?: number | 'all'; chain?: boolean },
  startedAt: Date,
  add: Add,
  checked: Record<string, number | string>,
): Promise<void> {
  if (opts.chain === false) {
    checked.chain = 'not checked: chain checks left out';
    return;
  }
  const halt = await indexerHalt(deps.db, deps.config.chainId);
  if (halt) {
    checked.chain = `not checked: indexing is halted (${halt.reason})`;
    return;
  }
  const window = opts.blockWindow ?? RECONCILE_BLOCK_WINDOW;
  const hashes: BlockHashes = new Map();
  checked['transfers on chain'] = await checkCountedOnChain(deps, window, hashes, add);
  checked['payouts on chain'] = await checkMoneyOutOnChain(deps, window, hashes, add);
  await checkStuck(deps, startedAt, add);
}

/** Counted transfers against the chain, within the window counted back from the newest counted block (a shop with none asks the node nothing). */
async function checkCountedOnChain(deps: Deps, window: number | 'all', hashes: BlockHashes, add: Add): Promise<number> {
  const { db } = deps;
  const newest = (await db.payment.aggregate({ where: { status: 'COUNTED' }, _max: { blockNumber: true } }))._max.blockNumber;
  if (newest === null) return 0;
  const since = window === 'all' ? 0n : newest - BigInt(window);
  const counted = await db.payment.findMany({
    where: { status: 'COUNTED', blockNumber: { not: null, gte: since > 0n ? since : 0n } },
    select: { id: true, txHash: true, blockNumber: true, blockHash: true },
  });
  if (counted.length === 0) return 0;
  await readHashes(deps, hashes, counted.map((p) => p.blockNumber as bigint), await deps.chain.getBlockNumber({ cacheTime: 0 }));
  for (const p of counted) {
    const onChain = hashes.get(p.blockNumber as bigint);
    if (onChain !== p.blockHash) {
      add('counted-off-chain', `A counted transfer's block ${p.blockNumber} is ${offChain(onChain)}, not ${p.blockHash}`, { paymentId: p.id, txHash: p.txHash });
    }
  }
  return counted.length;
}

/**
 * Money out against the chain: an accepted payout, and a refunded transfer, whose block
 * left the chain (the request would be PAID with nothing sent, the refund owed for ETH
 * that never arrived). Asks the node only when there is something to check.
 */
async function checkMoneyOutOnChain(deps: Deps, window: number | 'all', hashes: BlockHashes, add: Add): Promise<number> {
  const { db } = deps;
  const anyOut =
    (await db.payoutCheck.count({ where: { status: 'ACCEPTED', blockNumber: { not: null } }, take: 1 })) +
    (await db.payment.count({ where: { status: 'REFUNDED', blockNumber: { not: null }, source: { not: 'INFLOW' } }, take: 1 }));
  if (anyOut === 0) return 0;
  const head = await deps.chain.getBlockNumber({ cacheTime: 0 });
  const since = window === 'all' ? 0n : head - BigInt(window);
  const inWindow = { not: null, gte: since > 0n ? since : 0n };
  const [payouts, refunded] = await Promise.all([
    db.payoutCheck.findMany({ where: { status: 'ACCEPTED', blockNumber: inWindow }, select: { id: true, txHash: true, blockNumber: true, blockHash: true, cashoutId: true, refundId: true } }),
    db.payment.findMany({ where: { status: 'REFUNDED', blockNumber: inWindow, source: { not: 'INFLOW' } }, select: { id: true, txHash: true, blockNumber: true, blockHash: true } }),
  ]);
  await readHashes(deps, hashes, [...payouts, ...refunded].map((p) => p.blockNumber as bigint), head);
  for (const k of payouts) {
    const onChain = hashes.get(k.blockNumber as bigint);
    if (onChain !== k.blockHash) {
      add('payout-off-chain', `A verified payout's block ${k.blockNumber} is ${offChain(onChain)}: the ${k.cashoutId ? 'cashout' : 'refund'} is PAID with nothing sent`, {
        ...(k.cashoutId ? { cashoutId: k.cashoutId } : { refundId: k.refundId as string }),
        txHash: k.txHash,
      });
    }
  }
  for (const p of refunded) {
    const onChain = hashes.get(p.blockNumber as bigint);
    if (p.blockHash && onChain !== p.blockHash) {
      add('refunded-off-chain', `A refunded transfer's block ${p.blockNumber} is ${offChain(onChain)}: its refund gives back ETH that did not arrive`, { paymentId: p.id, txHash: p.txHash });
    }
  }
  return payouts.length;
}

/** Transfers confirmed on chain that nothing has settled for STUCK_AFTER_MS. */
async function checkStuck(deps: Deps, startedAt: Date, add: Add): Promise<void> {
  const waiting = await deps.db.payment.findMany({
    where: { status: 'PENDING', blockNumber: { not: null }, updatedAt: { lt: new Date(startedAt.getTime() - STUCK_AFTER_MS) } },
    select: { id: true, txHash: true, blockNumber: true, updatedAt: true },
  });
  if (waiting.length === 0) return;
  const head = await deps.chain.getBlockNumber({ cacheTime: 0 });
  for (const p of waiting) {
    const confirmations = confirmationsAt(head, p.blockNumber as bigint);
    if (confirmations >= deps.config.paymentConfirmations) {
      add('payment-stuck', `A transfer with ${confirmations} confirmations has been waiting since ${p.updatedAt.toISOString()} without being settled`, { paymentId: p.id, txHash: p.txHash });
    }
  }
}
