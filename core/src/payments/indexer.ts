import { hexToBigInt, numberToHex, type Hash, type Hex, type PublicClient } from 'viem';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db.ts';
import type { Logger } from '../logger.ts';
import { isStateUnavailable, type Delivery, type Tracer } from '../chain/trace.ts';
import { jobs, type Queues } from '../queues.ts';
import { emitPaymentUnresolved } from '../webhooks.ts';
import { explainInflow } from './settle.ts';

/**
 * Scans blocks for transfers to the receiving address, so a payment nobody reported
 * (closed tab, replaced transaction) is still found. Keeps a checkpoint with the block
 * hash and a short window of recent blocks linked by parent hash; when the chain no
 * longer holds the checkpoint's block, it walks back to the common ancestor, rewinds,
 * and asks for every transfer in the dropped blocks to be verified again. It follows
 * one chain: the checkpoint records the chain id and genesis hash, and a node on another
 * chain, or a rewind deeper than FINALITY_DEPTH, halts indexing and verification for an
 * operator instead of unpaying anything.
 */
export type IndexerDeps = { config: AppConfig; db: Db; chain: PublicClient; tracer: Tracer; logger: Logger };

export type IndexResult = {
  from: bigint;
  to: bigint;
  transfers: { paymentId: string; txHash: string }[];
  recheck: { paymentId: string; txHash: string }[];
  reorgDepth: number;
  /** Set while indexing is halted: why. */
  halted?: string;
  /** Blocks the node is behind the checkpoint (nothing indexed meanwhile). */
  behind?: number;
};

const CURSOR_ID = 'receiving-address';

/** The id an unexplained inflow is recorded under (where a payment has its transaction hash). */
export const inflowKey = (blockNumber: bigint, blockHash: string) => `inflow-${blockNumber}-${blockHash.slice(2, 14).toLowerCase()}`;
/** Indexed blocks kept behind the checkpoint: a reorg is walked back through them (the retention job keeps as many). */
export const INDEXED_BLOCK_WINDOW = 128n;
const WINDOW = INDEXED_BLOCK_WINDOW;
/** Block requests in flight at once. */
const FETCH_CONCURRENCY = 16;
/** Blocks fetched ahead of the one being linked and written. */
const FETCH_AHEAD = 256;
/** Blocks per database transaction (payments, block window and checkpoint together). */
const COMMIT_EVERY = 200;

/** Only what the indexer reads of a block: no formatting of the other fields. */
type ScannedBlock = {
  number: bigint;
  hash: Hash;
  parentHash: Hash;
  transactions: { hash: Hash; from: Hex; to: Hex | null; value: Hex }[];
  /** The receiving address's balance after the block (null when the node no longer serves that state). */
  balance: bigint | null;
};
type RpcBlock = { number: Hex | null; hash: Hash | null; parentHash: Hash; transactions: ScannedBlock['transactions'] };

/** What the indexer found in a block beyond plain transfers: internal ones, and ETH nothing explains. */
type BlockFindings = { internal: { hash: string; from: string; payer: string | null; valueWei: bigint }[]; inflowWei: bigint };

/**
 * The receiving address's balance after a block, asked by the block's hash (EIP-1898) so
 * it is that very block's state, not whichever block a node behind a load balancer holds
 * at that height. Null when the node no longer keeps that state (a pruned node); any
 * other failure (a block the node does not know, the network) is thrown and the run is
 * tried again.
 */
async function balanceAfter(chain: PublicClient, receiving: string, blockHash: Hash): Promise<bigint | null> {
  try {
    const hex = await chain.request({ method: 'eth_getBalance', params: [receiving as Hex, { blockHash } as never] });
    return hexToBigInt(hex);
  } catch (err) {
    if (isStateUnavailable(err)) return null;
    throw err;
  }
}

async function fetchBlock(chain: PublicClient, n: bigint, receiving: string): Promise<ScannedBlock> {
  const block = (await chain.request({ method: 'eth_getBlockByNumber', params: [numberToHex(n), true] })) as RpcBlock | null;
  if (!block) throw new Error(`block ${n} is not available from the node`);
  if (block.hash === null || block.number === null) throw new Error('pending block returned for a mined number');
  const balance = await balanceAfter(chain, receiving, block.hash);
  return { number: hexToBigInt(block.number), hash: block.hash, parentHash: block.parentHash, transactions: block.transactions, balance };
}

/**
 * Does the receiving address's balance change in this block add up with the plain
 * transfers to it? When it does not (a smart-contract wallet paid through an internal
 * call, a transfer reverted, the address itself sent something), the block's traces say
 * what arrived and from which transaction; ETH that even they do not explain (or that
 * arrived while the node cannot trace) is an inflow an admin must see, never nothing.
 * Transactions the shop's own address sent are never payments (change coming back to it
 * is its own money), but they count in the arithmetic.
 */
async function examineBlock(deps: IndexerDeps, block: ScannedBlock, before: bigint | null, receiving: string): Promise<BlockFindings> {
  const none: BlockFindings = { internal: [], inflowWei: 0n };
  const toShop = block.transactions.filter((t) => t.to?.toLowerCase() === receiving);
  const sent = block.transactions.filter((t) => t.from.toLowerCase() === receiving);
  const ownHashes = new Set(sent.map((t) => t.hash.toLowerCase()));
  const directHashes = new Set(toShop.map((t) => t.hash.toLowerCase()));
  const internalOf = (deliveries: Map<string, Delivery>) =>
    [...deliveries]
      .filter(([hash, d]) => !directHashes.has(hash) && !ownHashes.has(hash) && d.valueWei > 0n)
      .map(([hash, d]) => ({ hash, from: d.from, payer: d.payer, valueWei: d.valueWei }));
  if (block.balance === null || before === null) {
    // The node no longer serves the state of this block (a pruned node, an indexer far
    // behind): nothing to compare with, so the block's traces are read. A node that
    // cannot trace it either (a pruned node re-executes nothing) leaves it unseen: said
    // in the log, and README says which node the shop needs.
    const deliveries = await deps.tracer.block(block, receiving).catch((err: unknown) => {
      if (isStateUnavailable(err)) return null;
      throw err;
    });
    if (deliveries) return { internal: internalOf(deliveries), inflowWei: 0n };
    deps.logger.warn(
      { block: block.number.toString() },
      'the node serves neither the balance nor the traces of this block: ETH that reached the shop through an internal call in it cannot be seen (use a node that keeps the state of the blocks indexed, or one that traces)',
    );
    return none;
  }
  const delta = block.balance - before;
  const directSum = toShop.reduce((sum, t) => sum + hexToBigInt(t.value), 0n);
  if (sent.length === 0 && delta === directSum) return none;
  // What the address spent itself: value (when the transaction succeeded) and its fee.
  let spent = 0n;
  for (const t of sent) {
    const receipt = await deps.chain.getTransactionReceipt({ hash: t.hash });
    spent += receipt.gasUsed * receipt.effectiveGasPrice + (receipt.status === 'success' ? hexToBigInt(t.value) : 0n);
  }
  const deliveries = await deps.tracer.block(block, receiving);
  if (!deliveries) {
    // No traces: what the plain transfers do not explain is recorded as an inflow.
    const unexplained = delta + spent - directSum;
    return { internal: [], inflowWei: unexplained > 0n ? unexplained : 0n };
  }
  const traced = [...deliveries.values()].reduce((sum, d) => sum + d.valueWei, 0n);
  const unexplained = delta + spent - traced;
  return { internal: internalOf(deliveries), inflowWei: unexplained > 0n ? unexplained : 0n };
}

/**
 * Blocks from..to in order, fetched ahead of the reader: up to FETCH_CONCURRENCY
 * requests in flight and FETCH_AHEAD blocks buffered, so the node keeps serving while
 * the indexer writes to the database.
 */
function prefetchBlocks(chain: PublicClient, from: bigint, to: bigint, receiving: string) {
  const results = new Map<bigint, Promise<ScannedBlock>>();
  let next = from; // next block to request
  let taken = from; // next block the reader takes
  let inFlight = 0;
  let stopped = false;
  const pump = () => {
    while (!stopped && inFlight < FETCH_CONCURRENCY && next <= to && next - taken < BigInt(FETCH_AHEAD)) {
      const n = next++;
      inFlight++;
      const p = fetchBlock(chain, n, receiving).finally(() => {
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

type Cursor = NonNullable<Awaited<ReturnType<Db['chainCursor']['findUnique']>>>;

/**
 * Stops indexing (and, through `indexerHalt`, verification) until an operator acts.
 * Nothing is rewound or unpaid: the books stay as they were when the chain looked right.
 */
async function halt(deps: IndexerDeps, reason: string): Promise<void> {
  await deps.db.chainCursor.updateMany({ where: { id: CURSOR_ID, haltedAt: null }, data: { haltedAt: new Date(), haltReason: reason.slice(0, 500) } });
  deps.logger.error({ msg: 'indexer halted: payments are neither indexed nor verified until an operator acts (README, Operating it)', reason });
}

/** The clients whose chain id and genesis were checked against the checkpoint in this process. */
const identityChecked = new WeakSet<object>();

/**
 * The node must serve the chain the shop has been following: the configured chain id
 * and the genesis block recorded with the checkpoint. Checked once per process and
 * again whenever the checkpoint's block is not on the node. Returns a reason to halt.
 */
async function checkIdentity(deps: IndexerDeps, cursor: Cursor): Promise<string | null> {
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
 * Finds the newest indexed block the chain still agrees with and rewinds the checkpoint
 * to it. A rewind deeper than FINALITY_DEPTH is not a reorganization mainnet makes: the
 * node is wrong (a fork, another network), so the indexer halts instead, unless an
 * operator accepted one deep rewind.
 */
async function rewind(deps: IndexerDeps, cursor: Cursor): Promise<{ ancestor: bigint; depth: number } | { halt: string }> {
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

/** Why indexing and verification are halted, or null while they run. */
export async function indexerHalt(db: Db): Promise<{ since: Date; reason: string } | null> {
  const cursor = await db.chainCursor.findUnique({ where: { id: CURSOR_ID }, select: { haltedAt: true, haltReason: true } });
  return cursor?.haltedAt ? { since: cursor.haltedAt, reason: cursor.haltReason ?? 'halted' } : null;
}

/**
 * An operator's answer to a halt: `retry` clears it (after ETH_RPC_URL points at the
 * right node again; a node that is still wrong halts it again); `acceptReorg` also lets
 * the next rewind go deeper than FINALITY_DEPTH once, unpaying what the chain dropped.
 */
export async function resumeIndexer(db: Db, opts: { acceptReorg?: boolean } = {}): Promise<boolean> {
  const cleared = await db.chainCursor.updateMany({
    where: { id: CURSOR_ID, haltedAt: { not: null } },
    data: { haltedAt: null, haltReason: null, acceptDeepRewind: opts.acceptReorg ?? false },
  });
  return cleared.count === 1;
}

export async function indexBlocks(deps: IndexerDeps, opts: { maxBlocks?: number; startBlock?: bigint } = {}): Promise<IndexResult> {
  const { db, chain } = deps;
  let cursor = await db.chainCursor.findUnique({ where: { id: CURSOR_ID } });
  const idle = (c: Cursor, extra: Partial<IndexResult> = {}): IndexResult => ({
    from: c.blockNumber + 1n, to: c.blockNumber, transfers: [], recheck: [], reorgDepth: 0, ...extra,
  });
  if (cursor?.haltedAt) return idle(cursor, { halted: cursor.haltReason ?? 'halted' });
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  if (!cursor) {
    // A new shop starts watching from now (or from the given block), on this chain.
    const start = opts.startBlock ?? head;
    const [startBlock, genesis, chainId] = await Promise.all([
      chain.getBlock({ blockNumber: start > 0n ? start - 1n : 0n }),
      chain.getBlock({ blockNumber: 0n }),
      chain.getChainId(),
    ]);
    if (chainId !== deps.config.chainId) throw new Error(`The node at ETH_RPC_URL serves chain id ${chainId}, not ${deps.config.chainId}`);
    cursor = await db.chainCursor.upsert({
      where: { id: CURSOR_ID },
      create: { id: CURSOR_ID, blockNumber: startBlock.number as bigint, blockHash: startBlock.hash as string, genesisHash: genesis.hash, chainId },
      update: {},
    });
    identityChecked.add(chain);
  }
  const atCursor = head >= cursor.blockNumber ? await chain.getBlock({ blockNumber: cursor.blockNumber }).catch(() => null) : null;
  const onCursor = atCursor?.hash === cursor.blockHash;
  if (!identityChecked.has(chain) || !onCursor) {
    const wrongChain = await checkIdentity(deps, cursor);
    if (wrongChain) {
      await halt(deps, `${wrongChain} Indexing and payment verification are halted; nothing was unpaid.`);
      return idle(cursor, { halted: wrongChain });
    }
  }
  if (head < cursor.blockNumber) {
    // The node is behind the checkpoint (still syncing, or a lagging replica): wait for
    // it rather than take the missing blocks for a reorganization.
    return idle(cursor, { behind: Number(cursor.blockNumber - head) });
  }

  let reorgDepth = 0;
  const recheck: IndexResult['recheck'] = [];
  if (!onCursor) {
    const rewound = await rewind(deps, cursor);
    if ('halt' in rewound) {
      await halt(deps, `${rewound.halt} Indexing and payment verification are halted; nothing was unpaid.`);
      return idle(cursor, { halted: rewound.halt });
    }
    const { ancestor, depth } = rewound;
    reorgDepth = depth;
    deps.logger.warn({ msg: 'chain reorganization: rewound indexer', depth, ancestor: ancestor.toString() });
    // Inflows in the dropped blocks are measured again when their heights are indexed.
    await db.payment.deleteMany({ where: { source: 'INFLOW', status: 'UNRESOLVED', blockNumber: { gt: ancestor } } });
    const affected = await db.payment.findMany({
      where: { blockNumber: { gt: ancestor }, status: { in: ['PENDING', 'COUNTED', 'UNRESOLVED', 'LATE'] }, source: { not: 'INFLOW' } },
      select: { id: true, txHash: true },
    });
    recheck.push(...affected.map((p) => ({ paymentId: p.id, txHash: p.txHash })));
    cursor = await db.chainCursor.findUniqueOrThrow({ where: { id: CURSOR_ID } });
  }

  const receiving = deps.config.receivingAddress.toLowerCase();
  const from = cursor.blockNumber + 1n;
  const to = head < from + BigInt((opts.maxBlocks ?? 500) - 1) ? head : from + BigInt((opts.maxBlocks ?? 500) - 1);
  if (to < from) return { ...idle(cursor), recheck, reorgDepth };
  const fetcher = prefetchBlocks(chain, from, to, receiving);
  const transfers: IndexResult['transfers'] = [];
  let parent = cursor.blockHash;
  let indexedTo = cursor.blockNumber;
  // The balance after the checkpoint's block: where the next block's change is measured from.
  let balance = await balanceAfter(chain, receiving, cursor.blockHash as Hash);
  try {
    // The fetched range must chain onto the checkpoint; where it does not, the chain
    // moved under us: keep what links, and the next run rewinds.
    let linked: (ScannedBlock & BlockFindings)[] = [];
    for (let next = fetcher.take(); next; next = fetcher.take()) {
      const block = await next;
      if (block.parentHash !== parent) break;
      linked.push({ ...block, ...(await examineBlock(deps, block, balance, receiving)) });
      balance = block.balance;
      parent = block.hash;
      indexedTo = block.number;
      if (linked.length === COMMIT_EVERY) {
        const committed = await commitBlocks(db, linked, receiving);
        transfers.push(...committed.transfers);
        recheck.push(...committed.recheck);
        linked = [];
      }
    }
    if (linked.length > 0) {
      const committed = await commitBlocks(db, linked, receiving);
      transfers.push(...committed.transfers);
      recheck.push(...committed.recheck);
    }
  } finally {
    fetcher.stop();
  }
  return { from, to: indexedTo, transfers, recheck, reorgDepth };
}

/**
 * One transaction: the transfers to the shop in `linked`, the block window, the
 * checkpoint. Also returns the transfers the shop recorded in these heights under
 * another block hash (verified while the indexer was behind, then reorganized away
 * before it got there): they are checked again.
 */
async function commitBlocks(db: Db, linked: (ScannedBlock & BlockFindings)[], receiving: string): Promise<Pick<IndexResult, 'transfers' | 'recheck'>> {
  const found: { tx: { hash: string; from: string; payer: string | null; valueWei: bigint }; block: ScannedBlock; viaContract: boolean }[] = [];
  const inflows: { block: ScannedBlock; valueWei: bigint }[] = [];
  for (const block of linked) {
    for (const tx of block.transactions) {
      // The shop's own address sending to itself pays nothing.
      if (tx.to && tx.to.toLowerCase() === receiving && tx.from.toLowerCase() !== receiving) {
        found.push({ tx: { hash: tx.hash, from: tx.from, payer: tx.from, valueWei: hexToBigInt(tx.value) }, block, viaContract: false });
      }
    }
    for (const t of block.internal) found.push({ tx: t, block, viaContract: true });
    if (block.inflowWei > 0n) inflows.push({ block, valueWei: block.inflowWei });
  }
  const last = linked[linked.length - 1] as ScannedBlock;
  return db.$transaction(async (tx) => {
    // Written only onto the checkpoint these blocks chain from: a run that overlapped
    // another (two workers) finds it moved and writes nothing.
    const at = await tx.$queryRaw<{ blockHash: string }[]>`SELECT "blockHash" FROM "ChainCursor" WHERE "id" = ${CURSOR_ID} FOR UPDATE`;
    if (at[0]?.blockHash !== linked[0]!.parentHash) throw new Error('the indexer checkpoint moved during this run (another indexer run); it is tried again');
    let out: IndexResult['transfers'] = [];
    const reopened: IndexResult['recheck'] = [];
    if (found.length > 0) {
      // A transfer already known (reported by its buyer, or indexed before a rewind) is
      // left as it is; only the ones still waiting for verification are handed on.
      const hashes = found.map(({ tx: t }) => t.hash.toLowerCase());
      await tx.payment.createMany({
        data: found.map(({ tx: t, block, viaContract }) => ({
          txHash: t.hash.toLowerCase(),
          source: 'INDEXED' as const,
          status: 'PENDING' as const,
          viaContract,
          fromAddress: t.from.toLowerCase(),
          payerAddress: t.payer?.toLowerCase() ?? null,
          valueWei: t.valueWei.toString(),
          blockNumber: block.number,
          blockHash: block.hash,
        })),
        skipDuplicates: true,
      });
      // A transfer rejected before that this block shows delivering value is verified
      // again (with a fresh job: its first one is done): a report given up on (never found,
      // never mined, untraceable) mined after all, or a contract call that moved nothing in
      // the block the verifier read and moves value in the block a reorganization put in
      // its place. Value that reached the shop is never left behind.
      const rejected = await tx.payment.findMany({ where: { txHash: { in: hashes }, status: 'REJECTED' }, select: { id: true, txHash: true } });
      if (rejected.length > 0) {
        await tx.payment.updateMany({ where: { id: { in: rejected.map((p) => p.id) } }, data: { status: 'PENDING', reason: null } });
        reopened.push(...rejected.map((p) => ({ paymentId: p.id, txHash: p.txHash })));
      }
      const pending = await tx.payment.findMany({ where: { txHash: { in: hashes }, status: 'PENDING', id: { notIn: rejected.map((p) => p.id) } }, select: { id: true, txHash: true } });
      const byHash = new Map(pending.map((p) => [p.txHash, p.id]));
      out = hashes.flatMap((h) => (byHash.has(h) ? [{ paymentId: byHash.get(h) as string, txHash: h }] : []));
    }
    for (const { block, valueWei } of inflows) {
      const txHash = inflowKey(block.number, block.hash);
      const created = await tx.payment.createMany({
        data: [
          {
            txHash,
            source: 'INFLOW' as const,
            status: 'UNRESOLVED' as const,
            valueWei: valueWei.toString(),
            blockNumber: block.number,
            blockHash: block.hash,
            reason: `ETH arrived in block ${block.number} that no transaction the node could show explains; an admin will assign or refund it`,
          },
        ],
        skipDuplicates: true,
      });
      // Transfers through a contract in this block already found by tracing (a report the
      // verifier traced) explain part of what could not be traced here.
      await explainInflow(tx, block.hash);
      const left = created.count === 1 ? await tx.payment.findUnique({ where: { txHash } }) : null;
      if (left) await emitPaymentUnresolved(tx, left, left.reason ?? '');
    }
    await tx.indexedBlock.createMany({
      data: linked.map((b) => ({ number: b.number, hash: b.hash, parentHash: b.parentHash })),
      skipDuplicates: true,
    });
    await tx.indexedBlock.deleteMany({ where: { number: { lt: last.number - WINDOW } } });
    await tx.chainCursor.update({ where: { id: CURSOR_ID }, data: { blockNumber: last.number, blockHash: last.hash } });
    const hashAt = new Map(linked.map((b) => [b.number, b.hash.toLowerCase()]));
    const recorded = await tx.payment.findMany({
      where: { blockNumber: { gte: linked[0]!.number, lte: last.number }, status: { in: ['PENDING', 'COUNTED', 'UNRESOLVED', 'LATE'] } },
      select: { id: true, txHash: true, blockNumber: true, blockHash: true, source: true },
    });
    const stale = recorded.filter((p) => p.blockHash !== null && hashAt.get(p.blockNumber as bigint) !== p.blockHash.toLowerCase());
    // An inflow recorded for a block the chain replaced is measured again with the new block.
    await tx.payment.deleteMany({ where: { id: { in: stale.filter((p) => p.source === 'INFLOW').map((p) => p.id) }, status: 'UNRESOLVED' } });
    const moved = stale.filter((p) => p.source !== 'INFLOW');
    return { transfers: out, recheck: [...reopened, ...moved.map((p) => ({ paymentId: p.id, txHash: p.txHash }))] };
  });
}

export async function indexerLag(deps: Pick<IndexerDeps, 'db' | 'chain'>): Promise<bigint | null> {
  const cursor = await deps.db.chainCursor.findUnique({ where: { id: CURSOR_ID } });
  if (!cursor) return null;
  const head = await deps.chain.getBlockNumber({ cacheTime: 0 });
  return head - cursor.blockNumber;
}

/** One tick of the indexer, with verification queued for what it found and rechecks for what a reorg dropped. */
export async function indexAndQueue(deps: IndexerDeps & { queues: Queues }, opts: { maxBlocks?: number; startBlock?: bigint } = {}): Promise<IndexResult> {
  const result = await indexBlocks(deps, opts);
  for (const t of result.transfers) await jobs.verifyPayment(deps.queues, t);
  for (const t of result.recheck) await jobs.recheckPayment(deps.queues, t);
  return result;
}
