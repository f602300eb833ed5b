import type { Block, Hash, PublicClient, Transaction } from 'viem';
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
const FETCH_CONCURRENCY = 16;

type FullBlock = Block<bigint, true> & { hash: Hash; number: bigint };

async function fetchBlocks(chain: PublicClient, numbers: bigint[]): Promise<FullBlock[]> {
  const out: FullBlock[] = [];
  for (let i = 0; i < numbers.length; i += FETCH_CONCURRENCY) {
    const slice = numbers.slice(i, i + FETCH_CONCURRENCY);
    const blocks = await Promise.all(slice.map((n) => chain.getBlock({ blockNumber: n, includeTransactions: true })));
    for (const block of blocks) {
      if (block.hash === null || block.number === null) throw new Error('pending block returned for a mined number');
      out.push(block as FullBlock);
    }
  }
  return out;
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
  const numbers: bigint[] = [];
  for (let n = from; n <= to; n++) numbers.push(n);
  const blocks = await fetchBlocks(chain, numbers);

  // The fetched range must chain onto the checkpoint; if not, the chain moved under us
  // and the next run rewinds.
  let parent = cursor.blockHash;
  const linked: FullBlock[] = [];
  for (const block of blocks) {
    if (block.parentHash !== parent) break;
    linked.push(block);
    parent = block.hash;
  }
  if (linked.length === 0) return { from, to: cursor.blockNumber, transfers: [], recheck, reorgDepth };

  const found: { tx: Transaction; block: FullBlock }[] = [];
  for (const block of linked) {
    for (const tx of block.transactions) {
      if (tx.to && tx.to.toLowerCase() === receiving) found.push({ tx, block });
    }
  }
  const last = linked[linked.length - 1] as FullBlock;
  const transfers = await db.$transaction(async (tx) => {
    const out: IndexResult['transfers'] = [];
    for (const { tx: t, block } of found) {
      const payment = await tx.payment.upsert({
        where: { txHash: t.hash.toLowerCase() },
        create: {
          txHash: t.hash.toLowerCase(),
          source: 'INDEXED',
          status: 'PENDING',
          fromAddress: t.from.toLowerCase(),
          valueWei: t.value.toString(),
          blockNumber: block.number,
          blockHash: block.hash,
        },
        update: {},
        select: { id: true, txHash: true, status: true },
      });
      if (payment.status === 'PENDING') out.push({ paymentId: payment.id, txHash: payment.txHash });
    }
    await tx.indexedBlock.createMany({
      data: linked.map((b) => ({ number: b.number, hash: b.hash, parentHash: b.parentHash })),
      skipDuplicates: true,
    });
    await tx.indexedBlock.deleteMany({ where: { number: { lt: last.number - WINDOW } } });
    await tx.chainCursor.update({ where: { id: CURSOR_ID }, data: { blockNumber: last.number, blockHash: last.hash } });
    return out;
  });
  return { from, to: last.number, transfers, recheck, reorgDepth };
}

export async function indexerLag(deps: Pick<IndexerDeps, 'db' | 'chain'>): Promise<bigint | null> {
  const cursor = await deps.db.chainCursor.findUnique({ where: { id: CURSOR_ID } });
  if (!cursor) return null;
  const head = await deps.chain.getBlockNumber({ cacheTime: 0 });
  return head - cursor.blockNumber;
}
