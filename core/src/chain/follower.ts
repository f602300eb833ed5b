import type { Hash, PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import type { Db, Prisma } from '../infra/db.ts';
import type { Logger } from '../infra/logger.ts';
import { addressActivity, type AddressActivity, type ScannedBlock } from './address-activity.ts';
import { CURSOR_ID, haltFollowing, readCursor, type Cursor } from './cursor.ts';
import { balanceAfter, balancesAfter, blockWithTransactions } from './rpc.ts';
import type { OwnMoney, Tracer } from './trace.ts';
import { watchedActivity, type WatchedActivity } from './watched-activity.ts';

/**
 * The block follower: follows one chain block by block from a checkpoint, for one
 * address, and knows nothing of what the blocks mean to the shop. Each new block must
 * link onto the last by its parent hash; when the chain no longer holds the checkpoint's
 * block it walks back to the common ancestor and says so (a reorg), and a block that
 * leaves its window of recent blocks is final. It follows one chain: the checkpoint
 * records the chain id and genesis hash, and a node on another chain, or a rewind deeper
 * than FINALITY_DEPTH, halts following for an operator instead of guessing.
 *
 * Its consumer (payments/indexer.ts) hears three events: `reorg` (the checkpoint was
 * rewound to an ancestor), `blocks` (linked blocks, written in the same database
 * transaction that moves the checkpoint past them, so a crash never loses or repeats
 * one) and `finalized` (blocks below a height left the window).
 */
export type FollowerDeps = {
  config: AppConfig;
  db: Db;
  chain: PublicClient;
  tracer: Tracer;
  logger: Logger;
  own?: OwnMoney;
  /** More addresses to follow this run (the deposit addresses of live orders): what reached them in each block. */
  watched?: () => Promise<string[]>;
};

/** A block linked onto the checkpoint, with what reached the followed address in it. */
export type LinkedBlock = ScannedBlock & AddressActivity & WatchedActivity;

export type FollowerEvents = {
  reorg?: (rewound: { ancestor: bigint; depth: number }) => Promise<void>;
  blocks: (tx: Prisma.TransactionClient, linked: LinkedBlock[]) => Promise<void>;
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

async function fetchBlock(chain: PublicClient, n: bigint, address: string, watched: string[]): Promise<ScannedBlock> {
  const block = await blockWithTransactions(chain, n);
  const [balance, watchedBalances] = await Promise.all([balanceAfter(chain, address, block.hash), balancesAfter(chain, watched, block.hash)]);
  return { ...block, balance, watchedBalances };
}

/**
 * Blocks from..to in order, fetched ahead of the reader: up to FETCH_CONCURRENCY
 * requests in flight and FETCH_AHEAD blocks buffered, so the node keeps serving while
 * the consumer writes to the database.
 */
function prefetchBlocks(chain: PublicClient, from: bigint, to: bigint, address: string, watched: string[]) {
  const results = new Map<bigint, Promise<ScannedBlock>>();
  let next = from; // next block to request
  let taken = from; // next block the reader takes
  let inFlight = 0;
  let stopped = false;
  const pump = () => {
    while (!stopped && inFlight < FETCH_CONCURRENCY && next <= to && next - taken < BigInt(FETCH_AHEAD)) {
      const n = next++;
      inFlight++;
      const p = fetchBlock(chain, n, address, watched).finally(() => {
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
    take(): Promise<ScannedBlock> | null {
      if (taken > to) return null;
      // Always requested already: pump keeps `next` ahead of `taken`.
      const p = results.get(taken) as Promise<ScannedBlock>;
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
    await db.chainCursor.update({ where: { id: CURSOR_ID }, data: { genesisHash: genesis.hash, chainId } });
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
    const stored = await db.indexedBlock.findUnique({ where: { number: n } });
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
    db.indexedBlock.deleteMany({ where: { number: { gt: ancestor } } }),
    db.chainCursor.update({ where: { id: CURSOR_ID }, data: { blockNumber: ancestor, blockHash: ancestorBlock.hash as string, acceptDeepRewind: false } }),
  ]);
  return { ancestor, depth: Number(cursor.blockNumber - ancestor) };
}

/** The checkpoint, created on a new shop's first run at `start` (default: the head) on this chain. */
async function startingCursor(deps: FollowerDeps, head: bigint, start: bigint | undefined): Promise<Cursor> {
  const { db, chain, config } = deps;
  const existing = await readCursor(db);
  if (existing) return existing;
  const at = start ?? head;
  const [startBlock, genesis, chainId] = await Promise.all([
    chain.getBlock({ blockNumber: at > 0n ? at - 1n : 0n }),
    chain.getBlock({ blockNumber: 0n }),
    chain.getChainId(),
  ]);
  if (chainId !== config.chainId) throw new Error(`The node at ETH_RPC_URL serves chain id ${chainId}, not ${config.chainId}`);
  const created = await db.chainCursor.upsert({
    where: { id: CURSOR_ID },
    create: { id: CURSOR_ID, blockNumber: startBlock.number as bigint, blockHash: startBlock.hash as string, genesisHash: genesis.hash, chainId },
    update: {},
  });
  identityChecked.add(chain);
  return created;
}

/**
 * One run of the follower: checks the node's chain, rewinds on a reorganization, then
 * links up to `maxBlocks` new blocks onto the checkpoint and hands them to the consumer
 * a database transaction at a time.
 */
export async function followChain(deps: FollowerDeps, on: FollowerEvents, opts: { maxBlocks?: number; startBlock?: bigint } = {}): Promise<FollowOutcome> {
  const { db, chain } = deps;
  const stored = await readCursor(db);
  if (stored?.haltedAt) return { state: 'halted', reason: stored.haltReason ?? 'halted', at: stored.blockNumber };
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  let cursor = await startingCursor(deps, head, opts.startBlock);
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
    cursor = (await readCursor(db)) as Cursor;
  }

  const address = deps.config.receivingAddress.toLowerCase();
  const from = cursor.blockNumber + 1n;
  const last = from + BigInt((opts.maxBlocks ?? 500) - 1);
  const to = head < last ? head : last;
  if (to < from) return { state: 'followed', from, to: cursor.blockNumber, reorg };
  const watched = deps.watched ? [...new Set((await deps.watched()).map((a) => a.toLowerCase()))] : [];
  const fetcher = prefetchBlocks(chain, from, to, address, watched);
  let parent = cursor.blockHash;
  let followedTo = cursor.blockNumber;
  // The balances after the checkpoint's block: where the next block's change is measured from.
  let balance = await balanceAfter(chain, address, cursor.blockHash as Hash);
  let watchedBalances = await balancesAfter(chain, watched, cursor.blockHash as Hash);
  try {
    // The fetched range must chain onto the checkpoint; where it does not, the chain
    // moved under us: keep what links, and the next run rewinds.
    let linked: LinkedBlock[] = [];
    for (let next = fetcher.take(); next; next = fetcher.take()) {
      const block = await next;
      if (block.parentHash !== parent) break;
      const activity = await addressActivity(deps, block, balance, address);
      linked.push({ ...block, ...activity, ...(await watchedActivity(deps, block, watchedBalances, watched, activity.ownIn)) });
      balance = block.balance;
      watchedBalances = block.watchedBalances;
      parent = block.hash;
      followedTo = block.number;
      if (linked.length === COMMIT_EVERY) {
        await commit(db, linked, on);
        linked = [];
      }
    }
    if (linked.length > 0) await commit(db, linked, on);
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
async function commit(db: Db, linked: LinkedBlock[], on: FollowerEvents): Promise<void> {
  const first = linked[0] as LinkedBlock;
  const last = linked[linked.length - 1] as LinkedBlock;
  await db.$transaction(async (tx) => {
    const at = await tx.$queryRaw<{ blockHash: string }[]>`SELECT "blockHash" FROM "ChainCursor" WHERE "id" = ${CURSOR_ID} FOR UPDATE`;
    if (at[0]?.blockHash !== first.parentHash) throw new Error('the indexer checkpoint moved during this run (another indexer run); it is tried again');
    await on.blocks(tx, linked);
    await tx.indexedBlock.createMany({ data: linked.map((b) => ({ number: b.number, hash: b.hash, parentHash: b.parentHash })), skipDuplicates: true });
    const final = last.number - INDEXED_BLOCK_WINDOW;
    await tx.indexedBlock.deleteMany({ where: { number: { lt: final } } });
    await tx.chainCursor.update({ where: { id: CURSOR_ID }, data: { blockNumber: last.number, blockHash: last.hash } });
    await on.finalized?.(tx, final);
  });
}
