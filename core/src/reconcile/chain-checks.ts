import type { PublicClient } from 'viem';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db.ts';
import { indexerHalt } from '../chain/cursor.ts';
import { confirmationsAt } from '../chain/transfer-reader.ts';
import type { Add } from './subjects.ts';

/** A confirmed transfer still PENDING this long after it was last looked at is stuck. */
export const STUCK_AFTER_MS = 10 * 60_000;

/** How many blocks back from the head counted transfers are checked against the chain (older ones are final). */
export const RECONCILE_BLOCK_WINDOW = 2_000;

type Deps = { db: Db; chain: PublicClient; config: AppConfig };

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
  const { db } = deps;
  // Counted transfers against the chain.
  if (opts.chain === false) {
    checked.chain = 'not checked: chain checks left out';
    return;
  }
  const halt = await indexerHalt(db);
  if (halt) {
    checked.chain = `not checked: indexing is halted (${halt.reason})`;
  } else {
    // The window is counted back from the newest counted block, so a shop with no counted
    // transfer asks the node nothing.
    const window = opts.blockWindow ?? RECONCILE_BLOCK_WINDOW;
    const newest = (await db.payment.aggregate({ where: { status: 'COUNTED' }, _max: { blockNumber: true } }))._max.blockNumber;
    const since = newest === null || window === 'all' ? 0n : newest - BigInt(window);
    const counted =
      newest === null
        ? []
        : await db.payment.findMany({
            where: { status: 'COUNTED', blockNumber: { not: null, gte: since > 0n ? since : 0n } },
            select: { id: true, txHash: true, blockNumber: true, blockHash: true },
          });
    const head = counted.length ? await deps.chain.getBlockNumber({ cacheTime: 0 }) : 0n;
    const hashes = new Map<bigint, string | null>();
    for (const n of new Set(counted.map((p) => p.blockNumber as bigint))) {
      hashes.set(n, n > head ? null : ((await deps.chain.getBlock({ blockNumber: n }).catch(() => null))?.hash ?? null));
    }
    for (const p of counted) {
      const onChain = hashes.get(p.blockNumber as bigint);
      if (onChain !== p.blockHash) {
        add('counted-off-chain', `A counted transfer's block ${p.blockNumber} is ${onChain ? `now ${onChain}` : 'not on the chain'}, not ${p.blockHash}`, { paymentId: p.id, txHash: p.txHash });
      }
    }
    checked['transfers on chain'] = counted.length;

    // Money out against the chain: an accepted payout, and a refunded transfer, whose block
    // left the chain (the request would be PAID with nothing sent, the refund owed for ETH
    // that never arrived).
    const anyOut = (await db.payoutCheck.count({ where: { status: 'ACCEPTED', blockNumber: { not: null } }, take: 1 })) + (await db.payment.count({ where: { status: 'REFUNDED', blockNumber: { not: null }, source: { not: 'INFLOW' } }, take: 1 }));
    // Asks the node only when there is something to check.
    const outHead = anyOut > 0 ? await deps.chain.getBlockNumber({ cacheTime: 0 }) : 0n;
    const outSince = window === 'all' ? 0n : outHead - BigInt(window);
    const outWindow = { not: null, gte: outSince > 0n ? outSince : 0n };
    const [payouts, refunded] =
      anyOut === 0
        ? [[], []]
        : await Promise.all([
            db.payoutCheck.findMany({ where: { status: 'ACCEPTED', blockNumber: outWindow }, select: { id: true, txHash: true, blockNumber: true, blockHash: true, cashoutId: true, refundId: true } }),
            db.payment.findMany({ where: { status: 'REFUNDED', blockNumber: outWindow, source: { not: 'INFLOW' } }, select: { id: true, txHash: true, blockNumber: true, blockHash: true } }),
          ]);
    for (const n of new Set([...payouts, ...refunded].map((p) => p.blockNumber as bigint))) {
      if (!hashes.has(n)) hashes.set(n, n > outHead ? null : ((await deps.chain.getBlock({ blockNumber: n }).catch(() => null))?.hash ?? null));
    }
    for (const k of payouts) {
      const onChain = hashes.get(k.blockNumber as bigint);
      if (onChain !== k.blockHash) {
        add('payout-off-chain', `A verified payout's block ${k.blockNumber} is ${onChain ? `now ${onChain}` : 'not on the chain'}: the ${k.cashoutId ? 'cashout' : 'refund'} is PAID with nothing sent`, {
          ...(k.cashoutId ? { cashoutId: k.cashoutId } : { refundId: k.refundId as string }),
          txHash: k.txHash,
        });
      }
    }
    for (const p of refunded) {
      const onChain = hashes.get(p.blockNumber as bigint);
      if (p.blockHash && onChain !== p.blockHash) {
        add('refunded-off-chain', `A refunded transfer's block ${p.blockNumber} is ${onChain ? `now ${onChain}` : 'not on the chain'}: its refund gives back ETH that did not arrive`, { paymentId: p.id, txHash: p.txHash });
      }
    }
    checked['payouts on chain'] = payouts.length;
  }

  // Transfers confirmed on chain that nothing has settled.
  const waiting = await db.payment.findMany({
    where: { status: 'PENDING', blockNumber: { not: null }, updatedAt: { lt: new Date(startedAt.getTime() - STUCK_AFTER_MS) } },
    select: { id: true, txHash: true, blockNumber: true, updatedAt: true },
  });
  if (waiting.length > 0 && !halt) {
    const head = await deps.chain.getBlockNumber({ cacheTime: 0 });
    for (const p of waiting) {
      const confirmations = confirmationsAt(head, p.blockNumber as bigint);
      if (confirmations >= deps.config.paymentConfirmations) {
        add('payment-stuck', `A transfer with ${confirmations} confirmations has been waiting since ${p.updatedAt.toISOString()} without being settled`, { paymentId: p.id, txHash: p.txHash });
      }
    }
  }

}
