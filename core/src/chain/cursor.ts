import type { Hash, PublicClient } from 'viem';
import type { Db } from '../infra/db.ts';
import type { Logger } from '../infra/logger.ts';

/**
 * The block follower's checkpoint on one chain (keyed by its chain id): the last block
 * followed (number and hash), the chain's genesis hash, and the halt flag. While halted,
 * the chain is neither followed nor trusted: payment and payout verification on it wait too.
 */
export type Cursor = NonNullable<Awaited<ReturnType<Db['chainCursor']['findUnique']>>>;

export function readCursor(db: Db, chainId: number): Promise<Cursor | null> {
  return db.chainCursor.findUnique({ where: { chainId } });
}

/** Why following the chain (and so verification on it) is halted, or null while it runs. A plain statement: every payment check reads it. */
export async function indexerHalt(db: Db, chainId: number): Promise<{ since: Date; reason: string } | null> {
  const [cursor] = await db.$queryRaw<{ haltedAt: Date | null; haltReason: string | null }[]>`SELECT "haltedAt", "haltReason" FROM "ChainCursor" WHERE "chainId" = ${chainId}`;
  return cursor?.haltedAt ? { since: cursor.haltedAt, reason: cursor.haltReason ?? 'halted' } : null;
}

/**
 * Stops following the chain (and, through `indexerHalt`, verification) until an operator
 * acts. Nothing is rewound or unpaid: the books stay as they were when the chain looked right.
 */
export async function haltFollowing(deps: { db: Db; logger: Logger; config: { chainId: number } }, reason: string): Promise<void> {
  const { chainId } = deps.config;
  await deps.db.chainCursor.updateMany({ where: { chainId, haltedAt: null }, data: { haltedAt: new Date(), haltReason: reason.slice(0, 500) } });
  deps.logger.error({ msg: 'indexer halted: payments are neither indexed nor verified until an operator acts (README, Operating it)', reason, chain_id: chainId });
}

/**
 * An operator's answer to a halt: `retry` clears it (after ETH_RPC_URL points at the
 * right node again; a node that is still wrong halts it again); `acceptReorg` also lets
 * the next rewind go deeper than FINALITY_DEPTH once, unpaying what the chain dropped.
 */
export async function resumeIndexer(db: Db, chainId: number, opts: { acceptReorg?: boolean } = {}): Promise<boolean> {
  const cleared = await db.chainCursor.updateMany({
    where: { chainId, haltedAt: { not: null } },
    data: { haltedAt: null, haltReason: null, acceptDeepRewind: opts.acceptReorg ?? false },
  });
  return cleared.count === 1;
}

/** Blocks the checkpoint is behind the node's head, or null before the first run. */
export async function indexerLag(deps: { db: Db; chain: PublicClient; config: { chainId: number } }): Promise<bigint | null> {
  const cursor = await readCursor(deps.db, deps.config.chainId);
  if (!cursor) return null;
  const head = await deps.chain.getBlockNumber({ cacheTime: 0 });
  return head - cursor.blockNumber;
}

/**
 * The newest block both confirmed (`confirmations`) and indexed, named by the hash the
 * indexer followed (its checkpoint, or its window of recent blocks), never by what a node
 * answers for a height: a replica on another fork must not decide what the books hold.
 * Null before any block is indexed, or while following is halted.
 */
export async function confirmedIndexedBlock(deps: { db: Db; chain: PublicClient; config: { chainId: number } }, confirmations: number): Promise<{ number: bigint; hash: Hash } | null> {
  const { chainId } = deps.config;
  const [cursor, head] = await Promise.all([readCursor(deps.db, chainId), deps.chain.getBlockNumber({ cacheTime: 0 })]);
  if (!cursor || cursor.haltedAt) return null;
  const confirmed = head - BigInt(confirmations - 1);
  if (cursor.blockNumber <= confirmed) return { number: cursor.blockNumber, hash: cursor.blockHash as Hash };
  const kept = await deps.db.indexedBlock.findUnique({ where: { chainId_number: { chainId, number: confirmed } } });
  return kept ? { number: kept.number, hash: kept.hash as Hash } : null;
}
