import type { Hash, PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import type { Db, Prisma } from '../infra/db.ts';
import type { Logger } from '../infra/logger.ts';
import { haltFollowing, readCursor, type Cursor } from './cursor.ts';
import { blockWithTransactions, type RpcBlock } from './rpc.ts';

/**
 * The block follower: follows one chain block by block from a checkpoint, and knows
 * nothing of what the blocks mean to the shop. Each new block must
 * link onto the last by its parent hash; when the chain no longer holds the checkpoint's
 * block it walks back to the common ancestor and says so (a reorg), and a block that
 * leaves its window of recent blocks is final. It follows one chain: the checkpoint
 * records the chain id and genesis hash, and a node on another chain, or a rewind deeper
 * than FINALITY_DEPTH, halts following for an operator instead of guessing.
 *
 * What a block means is not its business: a `BlockReader` given by the consumer reads
 * each block (the payment rails of this chain: core/src/rails/), fetched ahead with the
 * block and read in order once the block links, so a reader may measure each block
 * against the one before it.
 *
 * Its consumer (payments/indexer.ts) hears three events: `reorg` (the checkpoint was
 * rewound to an ancestor), `blocks` (linked blocks with what the reader read in each,
 * written in the same database transaction that moves the checkpoint past them, so a
 * crash never loses or repeats one) and `finalized` (blocks below a height left the
 * window).
 */
export type FollowerDeps = {
  config: AppConfig;
  db: Db;
  chain: PublicClient;
  logger: Logger;
};

/**
 * What a consumer reads in each block beside its transactions. `begin` starts a run at
 * the checkpoint's block; `fetch` is called for blocks ahead of the one being linked
 * (several at once) and returns the reading, which the follower calls in block order
 * once the block links.
 */
export type BlockReader<T> = {
  begin(checkpoint: Hash): Promise<BlockRun<T>>;
};
export type BlockRun<T> = { fetch(block: RpcBlock): Promise<() => Promise<T>> };

/** A block linked onto the checkpoint, with what the reader read in it. */
export type LinkedBlock<T> = RpcBlock & { read: T };

export type FollowerEvents<T> = {
  reorg?: (rewound: { ancestor: bigint; depth: number }) => Promise<void>;
  blocks: (tx: Prisma.TransactionClient, linked: LinkedBlock<T>[]) => Promise<void>;
  finalized?: (tx: Prisma.TransactionClient, below: bigint) => Promise<void>;
};

export type FollowOutcome =
  | { state: 'halted'; reason: string; at: bigint }
  /** The node is this many blocks behind the checkpoint (nothing followed meanwhile). */
  | { state: 'behind'; blocks: number; at: bigint }
  | { state: 'followed'; from: bigint; to: bigint; reorg: { ancestor: bigint; depth: number } | null };

/** Blocks kept behind the checkpoint: a reorg is walked back through them (the retention job keeps as many); older ones are final. */
export const INDEXED_BLOCK_WINDOW = 128n;
/** Block requests in flight at once. */
const FETCH_CONCURRENCY = 16;
/** Blocks fetched ahead of the one being linked and written. */
const FETCH_AHEAD = 256;
/** Blocks per database transaction (the consumer's writes, the block window and the checkpoint together). */
const COMMIT_EVERY = 200;

type Fetched<T> = { block: RpcBlock; read: () => Promise<T> };

async function fetchBlock<T>(chain: PublicClient, n: bigint, run: BlockRun<T>): Promise<Fetched<T>> {
  const block = await blockWithTransactions(chain, n);
  return { block, read: await run.fetch(block) };
}

/**
 * Blocks from..to in order, fetched ahead of the reader: up to FETCH_CONCURRENCY
 * requests in flight and FETCH_AHEAD blocks buffered, so the node keeps serving while
 * the consumer writes to the database.
 */
function prefetchBlocks<T>(chain: PublicClient, from: bigint, to: bigint, run: BlockRun<T>) {
  const results = new Map<bigint, Promise<Fetched<T>>>();
  let next = from; // next block to request
  let taken = from; // next block the reader takes
  let inFlight = 0;
  let stopped = false;
  const pump = () => {
    while (!stopped && inFlight < FETCH_CONCURRENCY && next <= to && next - taken < BigInt(FETCH_AHEAD)) {
      const n = next++;
      inFlight++;
      const p = fetchBlock(chain, n, run).finally(() => {
        inFlight--;
        pump();
      });
      p.catch(() => {}); // surfaced by take(); never an unhandled rejection
      results.set(n, p);
    }
  };
  pump();
  return {
    /** The next block in order, or null after `to`. */
    take(): Promise<Fetched<T>> | null {
      if (taken > to) return null;
      // Always requested already: pump keeps `next` ahead of `taken`.
      const p = results.get(taken) as Promise<Fetched<T>>;
      results.delete(taken);
      taken++;
      pump();
      return p;
    },
    stop() {
      stopped = true;
    },
  };
}

/** The clients whose chain id and genesis were checked against the checkpoint in this process. */
const identityChecked = new WeakSet<object>();

/**
 * The node must serve the chain being followed: the configured chain id and the genesis
 * block recorded with the checkpoint. Checked once per process and again whenever the
 * checkpoint's block is not on the node. Returns a reason to halt.
 */
async function checkIdentity(deps: FollowerDeps, cursor: Cursor): Promise<string | null> {
  const { chain, config, db } = deps;
  const [chainId, genesis] = await Promise.all([chain.getChainId(), chain.getBlock({ blockNumber: 0n })]);
  if (chainId !== config.chainId) {
    return `The node at ETH_RPC_URL serves chain id ${chainId}, not ${config.chainId}.`;
  }
  if (!cursor.genesisHash) {
    // A checkpoint written before genesis hashes were recorded: adopt this chain's.
    await db.chainCursor.update({ where: { chainId: config.chainId }, data: { genesisHash: genesis.hash } });
  } else if (cursor.genesisHash !== genesis.hash) {
    return `The node at ETH_RPC_URL follows another chain (genesis ${genesis.hash}) than the one this shop has indexed (genesis ${cursor.genesisHash}).`;
  }
  identityChecked.add(chain);
  return null;
}

/**
 * Finds the newest followed block the chain still agrees with and rewinds the checkpoint
 * to it. A rewind deeper than FINALITY_DEPTH is not a reorganization mainnet makes: the
 * node is wrong (a fork, another network), so following halts instead, unless an
 * operator accepted one deep rewind.
 */
async function rewind(deps: FollowerDeps, cursor: Cursor): Promise<{ ancestor: bigint; depth: number } | { halt: string }> {
  const { db, chain, config } = deps;
  let n = cursor.blockNumber;
  while (n >= 0n) {
    const stored = await db.indexedBlock.findUnique({ where: { chainId_number: { chainId: config.chainId, number: n } } });
    if (!stored) break; // beyond the window: restart from here
    const onChain = await chain.getBlock({ blockNumber: n }).catch(() => null);
    if (onChain?.hash === stored.hash) break;
    n--;
    if (cursor.blockNumber - n > BigInt(config.finalityDepth) && !cursor.acceptDeepRewind) {
      return {
        halt: `The chain no longer holds blocks ${n + 1n} to ${cursor.blockNumber} that were indexed, a rewind deeper than FINALITY_DEPTH (${config.finalityDepth} blocks).`,
      };
    }
  }
  const ancestor = n < 0n ? 0n : n;
  const ancestorBlock = await chain.getBlock({ blockNumber: ancestor });
  await db.$transaction([
    db.indexedBlock.deleteMany({ where: { chainId: config.chainId, number: { gt: ancestor } } }),
    db.chainCursor.update({ where: { chainId: config.chainId }, data: { blockNumber: ancestor, blockHash: ancestorBlock.hash as string, acceptDeepRewind: false } }),
  ]);
  return { ancestor, depth: Number(cursor.blockNumber - ancestor) };
}

/** The checkpoint, created on a new shop's first run at `start` (default: the head) on this chain. */
async function startingCursor(deps: FollowerDeps, head: bigint, start: bigint | undefined): Promise<Cursor> {
  const { db, chain, config } = deps;
  const existing = await readCursor(db, config.chainId);
  if (existing) return existing;
  const at = start ?? head;
  const [startBlock, genesis, chainId] = await Promise.all([
    chain.getBlock({ blockNumber: at > 0n ? at - 1n : 0n }),
    chain.getBlock({ blockNumber: 0n }),
    chain.getChainId(),
  ]);
  if (chainId !== config.chainId) throw new Error(`The node at ETH_RPC_URL serves chain id ${chainId}, not ${config.chainId}`);
  // A database that already follows another chain does not start on this one by itself: CHAIN_ID and
  // ETH_RPC_URL moved together (a staging configuration against this database) would otherwise have
  // that chain's coins pay this shop's orders. Its checkpoint starts halted; an operator who means it
  // resumes it (npm run indexer:resume).
  const followed = await db.chainCursor.findFirst({ where: { chainId: { not: chainId } }, select: { chainId: true } });
  const halt = followed
    ? { haltedAt: new Date(), haltReason: `This database follows chain ${followed.chainId}; chain ${chainId} (CHAIN_ID and ETH_RPC_URL) is not followed until an operator resumes it.` }
    : {};
  const created = await db.chainCursor.upsert({
    where: { chainId },
    create: { chainId, blockNumber: startBlock.number as bigint, blockHash: startBlock.hash as string, genesisHash: genesis.hash, ...halt },
    update: {},
  });
  identityChecked.add(chain);
  return created;
}

/**
 * One run of the follower: checks the node's chain, rewinds on a reorganization, then
 * links up to `maxBlocks` new blocks onto the checkpoint, has `reader` read each, and
 * hands them to the consumer a database transaction at a time.
 */
export async function followChain<T>(
  deps: FollowerDeps,
  reader: BlockReader<T>,
  on: FollowerEvents<T>,
  opts: { maxBlocks?: number; startBlock?: bigint } = {},
): Promise<FollowOutcome> {
  const { db, chain, config } = deps;
  const stored = await readCursor(db, config.chainId);
  if (stored?.haltedAt) return { state: 'halted', reason: stored.haltReason ?? 'halted', at: stored.blockNumber };
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  let cursor = await startingCursor(deps, head, opts.startBlock);
  if (cursor.haltedAt) return { state: 'halted', reason: cursor.haltReason ?? 'halted', at: cursor.blockNumber };
  const atCursor = head >= cursor.blockNumber ? await chain.getBlock({ blockNumber: cursor.blockNumber }).catch(() => null) : null;
  const onCursor = atCursor?.hash === cursor.blockHash;
  if (!identityChecked.has(chain) || !onCursor) {
    const wrongChain = await checkIdentity(deps, cursor);
    if (wrongChain) {
      await haltFollowing(deps, `${wrongChain} Indexing and payment verification are halted; nothing was unpaid.`);
      return { state: 'halted', reason: wrongChain, at: cursor.blockNumber };
    }
  }
  // The node is behind the checkpoint (still syncing, or a lagging replica): wait for it
  // rather than take the missing blocks for a reorganization.
  if (head < cursor.blockNumber) return { state: 'behind', blocks: Number(cursor.blockNumber - head), at: cursor.blockNumber };

  let reorg: { ancestor: bigint; depth: number } | null = null;
  if (!onCursor) {
    const rewound = await rewind(deps, cursor);
    if ('halt' in rewound) {
      await haltFollowing(deps, `${rewound.halt} Indexing and payment verification are halted; nothing was unpaid.`);
      return { state: 'halted', reason: rewound.halt, at: cursor.blockNumber };
    }
    reorg = rewound;
    deps.logger.warn({ msg: 'chain reorganization: rewound indexer', depth: rewound.depth, ancestor: rewound.ancestor.toString() });
    await on.reorg?.(rewound);
    cursor = (await readCursor(db, config.chainId)) as Cursor;
  }

  const from = cursor.blockNumber + 1n;
  const last = from + BigInt((opts.maxBlocks ?? 500) - 1);
  const to = head < last ? head : last;
  if (to < from) return { state: 'followed', from, to: cursor.blockNumber, reorg };
  const run = await reader.begin(cursor.blockHash as Hash);
  const fetcher = prefetchBlocks(chain, from, to, run);
  let parent = cursor.blockHash;
  let followedTo = cursor.blockNumber;
  try {
    // The fetched range must chain onto the checkpoint; where it does not, the chain
    // moved under us: keep what links, and the next run rewinds.
    let linked: LinkedBlock<T>[] = [];
    for (let next = fetcher.take(); next; next = fetcher.take()) {
      const { block, read } = await next;
      if (block.parentHash !== parent) break;
      linked.push({ ...block, read: await read() });
      parent = block.hash;
      followedTo = block.number;
      if (linked.length === COMMIT_EVERY) {
        await commit(db, config.chainId, linked, on);
        linked = [];
      }
    }
    if (linked.length > 0) await commit(db, config.chainId, linked, on);
  } finally {
    fetcher.stop();
  }
  return { state: 'followed', from, to: followedTo, reorg };
}

/**
 * One transaction: the consumer's writes for `linked`, the block window, the checkpoint.
 * Written only onto the checkpoint these blocks chain from: a run that overlapped another
 * (two workers) finds it moved and writes nothing.
 */
async function commit<T>(db: Db, chainId: number, linked: LinkedBlock<T>[], on: FollowerEvents<T>): Promise<void> {
  const first = linked[0] as LinkedBlock<T>;
  const last = linked[linked.length - 1] as LinkedBlock<T>;
  await db.$transaction(async (tx) => {
    const at = await tx.$queryRaw<{ blockHash: string }[]>`SELECT "blockHash" FROM "ChainCursor" WHERE "chainId" = ${chainId} FOR UPDATE`;
    if (at[0]?.blockHash !== first.parentHash) throw new Error('the indexer checkpoint moved during this run (another indexer run); it is tried again');
    await on.blocks(tx, linked);
    await tx.indexedBlock.createMany({ data: linked.map((b) => ({ chainId, number: b.number, hash: b.hash, parentHash: b.parentHash })), skipDuplicates: true });
    const final = last.number - INDEXED_BLOCK_WINDOW;
    await tx.indexedBlock.deleteMany({ where: { chainId, number: { lt: final } } });
    await tx.chainCursor.update({ where: { chainId }, data: { blockNumber: last.number, blockHash: last.hash } });
    await on.finalized?.(tx, final);
  });
}
