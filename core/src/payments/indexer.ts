import { hexToBigInt, numberToHex, type Hash, type Hex, type PublicClient } from 'viem';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db.ts';
import type { Logger } from '../logger.ts';

/**
 * Scans blocks for transfers to the receiving address, so a payment nobody reported
 * (closed tab, replaced transaction) is still found. Keeps a checkpoint with the block
 * hash and a short window of recent blocks linked by parent hash; when the chain no
 * longer holds the checkpoint's block, it walks back to the common ancestor, rewinds,
 * and asks for every transfer in the dropped blocks to be verified again.
 */
export type IndexerDeps = { config: AppConfig; db: Db; chain: PublicClient; logger: Logger };

export type IndexResult = {
  from: bigint;
  to: bigint;
  transfers: { paymentId: string; txHash: string }[];
  recheck: { paymentId: string; txHash: string }[];
  reorgDepth: number;
};

const CURSOR_ID = 'receiving-address';
const WINDOW = 128n;
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
};
type RpcBlock = { number: Hex | null; hash: Hash | null; parentHash: Hash; transactions: ScannedBlock['transactions'] };

async function fetchBlock(chain: PublicClient, n: bigint): Promise<ScannedBlock> {
  const block = (await chain.request({ method: 'eth_getBlockByNumber', params: [numberToHex(n), true] })) as RpcBlock | null;
  if (!block) throw new Error(`block ${n} is not available from the node`);
  if (block.hash === null || block.number === null) throw new Error('pending block returned for a mined number');
  return { number: hexToBigInt(block.number), hash: block.hash, parentHash: block.parentHash, transactions: block.transactions };
}

/**
 * Blocks from..to in order, fetched ahead of the reader: up to FETCH_CONCURRENCY
 * requests in flight and FETCH_AHEAD blocks buffered, so the node keeps serving while
 * the indexer writes to the database.
 */
function prefetchBlocks(chain: PublicClient, from: bigint, to: bigint) {
  const results = new Map<bigint, Promise<ScannedBlock>>();
  let next = from; // next block to request
  let taken = from; // next block the reader takes
  let inFlight = 0;
  let stopped = false;
  const pump = () => {
    while (!stopped && inFlight < FETCH_CONCURRENCY && next <= to && next - taken < BigInt(FETCH_AHEAD)) {
      const n = next++;
      inFlight++;
      const p = fetchBlock(chain, n).finally(() => {
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

/** Finds the newest stored block the chain still agrees with; rewinds to it. */
async function rewind(deps: IndexerDeps, cursorNumber: bigint): Promise<{ ancestor: bigint; depth: number }> {
  const { db, chain } = deps;
  let n = cursorNumber;
  while (n >= 0n) {
    const stored = await db.indexedBlock.findUnique({ where: { number: n } });
    if (!stored) break; // beyond the window: restart from here
    const onChain = await chain.getBlock({ blockNumber: n }).catch(() => null);
    if (onChain?.hash === stored.hash) break;
    n--;
  }
  const ancestor = n < 0n ? 0n : n;
  const ancestorBlock = await chain.getBlock({ blockNumber: ancestor });
  await db.$transaction([
    db.indexedBlock.deleteMany({ where: { number: { gt: ancestor } } }),
    db.chainCursor.update({ where: { id: CURSOR_ID }, data: { blockNumber: ancestor, blockHash: ancestorBlock.hash as string } }),
  ]);
  return { ancestor, depth: Number(cursorNumber - ancestor) };
}

export async function indexBlocks(deps: IndexerDeps, opts: { maxBlocks?: number; startBlock?: bigint } = {}): Promise<IndexResult> {
  const { db, chain, config, logger } = deps;
  const receiving = config.receivingAddress.toLowerCase();
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  let cursor = await db.chainCursor.findUnique({ where: { id: CURSOR_ID } });
  if (!cursor) {
    // A new shop starts watching from now (or from the given block).
    const start = opts.startBlock ?? head;
    const startBlock = await chain.getBlock({ blockNumber: start > 0n ? start - 1n : 0n });
    cursor = await db.chainCursor.upsert({
      where: { id: CURSOR_ID },
      create: { id: CURSOR_ID, blockNumber: startBlock.number as bigint, blockHash: startBlock.hash as string },
      update: {},
    });
  }
  let reorgDepth = 0;
  const recheck: IndexResult['recheck'] = [];
  const atCursor = await chain.getBlock({ blockNumber: cursor.blockNumber }).catch(() => null);
  if (!atCursor || atCursor.hash !== cursor.blockHash) {
    const { ancestor, depth } = await rewind(deps, cursor.blockNumber);
    reorgDepth = depth;
    logger.warn({ msg: 'chain reorganization: rewound indexer', depth, ancestor: ancestor.toString() });
    const affected = await db.payment.findMany({
      where: { blockNumber: { gt: ancestor }, status: { in: ['PENDING', 'COUNTED', 'UNRESOLVED', 'LATE'] } },
      select: { id: true, txHash: true },
    });
    recheck.push(...affected.map((p) => ({ paymentId: p.id, txHash: p.txHash })));
    cursor = await db.chainCursor.findUniqueOrThrow({ where: { id: CURSOR_ID } });
  }

  const from = cursor.blockNumber + 1n;
  const to = head < from + BigInt((opts.maxBlocks ?? 500) - 1) ? head : from + BigInt((opts.maxBlocks ?? 500) - 1);
  if (to < from) return { from, to: cursor.blockNumber, transfers: [], recheck, reorgDepth };
  const fetcher = prefetchBlocks(chain, from, to);
  const transfers: IndexResult['transfers'] = [];
  let parent = cursor.blockHash;
  let indexedTo = cursor.blockNumber;
  try {
    // The fetched range must chain onto the checkpoint; where it does not, the chain
    // moved under us: keep what links, and the next run rewinds.
    let linked: ScannedBlock[] = [];
    for (let next = fetcher.take(); next; next = fetcher.take()) {
      const block = await next;
      if (block.parentHash !== parent) break;
      linked.push(block);
      parent = block.hash;
      indexedTo = block.number;
      if (linked.length === COMMIT_EVERY) {
        transfers.push(...(await commitBlocks(db, linked, receiving)));
        linked = [];
      }
    }
    if (linked.length > 0) transfers.push(...(await commitBlocks(db, linked, receiving)));
  } finally {
    fetcher.stop();
  }
  return { from, to: indexedTo, transfers, recheck, reorgDepth };
}

/** One transaction: the transfers to the shop in `linked`, the block window, the checkpoint. */
async function commitBlocks(db: Db, linked: ScannedBlock[], receiving: string): Promise<IndexResult['transfers']> {
  const found: { tx: ScannedBlock['transactions'][number]; block: ScannedBlock }[] = [];
  for (const block of linked) {
    for (const tx of block.transactions) {
      if (tx.to && tx.to.toLowerCase() === receiving) found.push({ tx, block });
    }
  }
  const last = linked[linked.length - 1] as ScannedBlock;
  return db.$transaction(async (tx) => {
    let out: IndexResult['transfers'] = [];
    if (found.length > 0) {
      // A transfer already known (reported by its buyer, or indexed before a rewind) is
      // left as it is; only the ones still waiting for verification are handed on.
      const hashes = found.map(({ tx: t }) => t.hash.toLowerCase());
      await tx.payment.createMany({
        data: found.map(({ tx: t, block }) => ({
          txHash: t.hash.toLowerCase(),
          source: 'INDEXED' as const,
          status: 'PENDING' as const,
          fromAddress: t.from.toLowerCase(),
          valueWei: hexToBigInt(t.value).toString(),
          blockNumber: block.number,
          blockHash: block.hash,
        })),
        skipDuplicates: true,
      });
      const pending = await tx.payment.findMany({ where: { txHash: { in: hashes }, status: 'PENDING' }, select: { id: true, txHash: true } });
      const byHash = new Map(pending.map((p) => [p.txHash, p.id]));
      out = hashes.flatMap((h) => (byHash.has(h) ? [{ paymentId: byHash.get(h) as string, txHash: h }] : []));
    }
    await tx.indexedBlock.createMany({
      data: linked.map((b) => ({ number: b.number, hash: b.hash, parentHash: b.parentHash })),
      skipDuplicates: true,
    });
    await tx.indexedBlock.deleteMany({ where: { number: { lt: last.number - WINDOW } } });
    await tx.chainCursor.update({ where: { id: CURSOR_ID }, data: { blockNumber: last.number, blockHash: last.hash } });
    return out;
  });
}

export async function indexerLag(deps: Pick<IndexerDeps, 'db' | 'chain'>): Promise<bigint | null> {
  const cursor = await deps.db.chainCursor.findUnique({ where: { id: CURSOR_ID } });
  if (!cursor) return null;
  const head = await deps.chain.getBlockNumber({ cacheTime: 0 });
  return head - cursor.blockNumber;
}
