import type { AppConfig } from '../infra/config.ts';
import type { Asset, Db } from '../infra/db.ts';
import type { Tx } from '../books/ledger.ts';
import type { Logger } from '../infra/logger.ts';
import type { PublicClient } from 'viem';
import { followChain, type LinkedBlock } from '../chain/follower.ts';
import type { RpcBlock } from '../chain/rpc.ts';
import type { Tracer } from '../chain/trace.ts';
import { jobs, type Queues } from '../infra/queues.ts';
import { emitPaymentUnresolved } from '../events/webhooks.ts';
import { chainRails, railDeliveries, railsReader, type AssetDeliveries, type Rail, type RailReads } from '../rails/index.ts';
import { depositAddressesAmong, depositMoney, watchedDepositAddresses } from './deposits.ts';
import { explainInflow } from './inflows.ts';

/**
 * The payments side of following the chain: every transfer the chain's rails
 * (core/src/rails/) read in the blocks the follower (chain/follower.ts) links, reaching
 * the receiving address or an order's deposit address, becomes a payment to verify,
 * so a payment nobody reported (closed tab, replaced transaction) is still found; ETH
 * nothing explains becomes an UNRESOLVED inflow; a reorganization asks for every
 * transfer in the dropped blocks to be verified again. The follower halts for an
 * operator instead of unpaying anything on another chain or a too-deep rewind.
 */
export type IndexerDeps = { config: AppConfig; db: Db; chain: PublicClient; tracer: Tracer; logger: Logger };

export type IndexResult = {
  from: bigint;
  to: bigint;
  transfers: TransferJob[];
  recheck: TransferJob[];
  reorgDepth: number;
  /** Set while indexing is halted: why. */
  halted?: string;
  /** Blocks the node is behind the checkpoint (nothing indexed meanwhile). */
  behind?: number;
};

/** A transfer to verify: the payment and its key (queues.ts names its job by the key). */
export type TransferJob = { paymentId: string; txHash: string; depositAddress: string | null; logIndex: number | null };
const transferJob = (p: { id: string; txHash: string; depositAddress: string | null; logIndex: number | null }): TransferJob => ({
  paymentId: p.id,
  txHash: p.txHash,
  depositAddress: p.depositAddress,
  logIndex: p.logIndex,
});

/** The id an unexplained inflow is recorded under (where a payment has its transaction hash). */
export const inflowKey = (blockNumber: bigint, blockHash: string) => `inflow-${blockNumber}-${blockHash.slice(2, 14).toLowerCase()}`;

export async function indexBlocks(deps: IndexerDeps, opts: { maxBlocks?: number; startBlock?: bigint } = {}): Promise<IndexResult> {
  const { db } = deps;
  const receiving = deps.config.receivingAddress.toLowerCase();
  const rails = chainRails(deps);
  const transfers: IndexResult['transfers'] = [];
  const recheck: IndexResult['recheck'] = [];
  const reader = railsReader(rails, async () => ({
    receiving,
    // The deposit addresses of live orders are watched for what arrives through contracts.
    watched: [...new Set((await watchedDepositAddresses(db, deps.config.latePaymentHours)).map((a) => a.toLowerCase()))],
    // Sweeps of the deposit addresses reaching the receiving address are the shop's own money.
    own: depositMoney(deps),
  }));
  const outcome = await followChain(
    deps,
    reader,
    {
      async reorg({ ancestor }) {
        // Inflows in the dropped blocks are measured again when their heights are indexed.
        await db.payment.deleteMany({ where: { source: 'INFLOW', status: 'UNRESOLVED', blockNumber: { gt: ancestor } } });
        const affected = await db.payment.findMany({
          where: { blockNumber: { gt: ancestor }, status: { in: ['PENDING', 'COUNTED', 'UNRESOLVED', 'LATE'] }, source: { not: 'INFLOW' } },
          select: { id: true, txHash: true, depositAddress: true, logIndex: true },
        });
        recheck.push(...affected.map(transferJob));
      },
      async blocks(tx, linked) {
        const recorded = await recordTransfers(tx, rails, linked, receiving);
        transfers.push(...recorded.transfers);
        recheck.push(...recorded.recheck);
      },
    },
    opts,
  );
  switch (outcome.state) {
    case 'halted':
      return { from: outcome.at + 1n, to: outcome.at, transfers: [], recheck: [], reorgDepth: 0, halted: outcome.reason };
    case 'behind':
      return { from: outcome.at + 1n, to: outcome.at, transfers: [], recheck: [], reorgDepth: 0, behind: outcome.blocks };
    case 'followed':
      return { from: outcome.from, to: outcome.to, transfers, recheck, reorgDepth: outcome.reorg?.depth ?? 0 };
  }
}

/**
 * Inside the follower's transaction for `linked`: the transfers to the shop the rails
 * read, as payments to verify, and the unexplained inflows. Also returns the transfers
 * the shop recorded in these heights under another block hash (verified while the
 * indexer was behind, then reorganized away before it got there): they are checked again.
 */
async function recordTransfers(tx: Tx, rails: Rail[], linked: LinkedBlock<RailReads>[], receiving: string): Promise<Pick<IndexResult, 'transfers' | 'recheck'>> {
  const { found, inflows } = await railDeliveries(rails, linked, { receiving, depositAddressesAmong: (addresses: string[]) => depositAddressesAmong(tx, addresses) });
  const { transfers, reopened } = found.length > 0 ? await recordFound(tx, found) : { transfers: [], reopened: [] };
  for (const { block, asset, amount, depositAddress } of inflows) await recordInflow(tx, block, asset, amount, depositAddress);
  const moved = await movedAway(tx, linked);
  return { transfers, recheck: [...reopened, ...moved] };
}

/** A transfer's key: its hash, the shop's address it reached and its Transfer log (payments' unique key). */
const keyOf = (hash: string, depositAddress: string | null, logIndex: number | null) => `${hash.toLowerCase()}|${depositAddress ?? ''}|${logIndex ?? ''}`;

async function recordFound(tx: Tx, found: AssetDeliveries['found']): Promise<{ transfers: IndexResult['transfers']; reopened: IndexResult['recheck'] }> {
  // A transfer already known (reported by its buyer, or indexed before a rewind) is
  // left as it is; only the ones still waiting for verification are handed on.
  const hashes = [...new Set(found.map((t) => t.hash.toLowerCase()))];
  const wanted = new Set(found.map((t) => keyOf(t.hash, t.depositAddress, t.logIndex)));
  await tx.payment.createMany({
    data: found.map(({ block, viaContract, depositAddress, ...t }) => ({
      txHash: t.hash.toLowerCase(),
      depositAddress,
      logIndex: t.logIndex,
      asset: t.asset,
      source: 'INDEXED' as const,
      status: 'PENDING' as const,
      viaContract,
      fromAddress: t.from.toLowerCase(),
      payerAddress: t.payer?.toLowerCase() ?? null,
      amount: t.amount.toString(),
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
  const ours = (p: { txHash: string; depositAddress: string | null; logIndex: number | null }) => wanted.has(keyOf(p.txHash, p.depositAddress, p.logIndex));
  const select = { id: true, txHash: true, depositAddress: true, logIndex: true } as const;
  const rejected = (await tx.payment.findMany({ where: { txHash: { in: hashes }, status: 'REJECTED' }, select })).filter(ours);
  if (rejected.length > 0) {
    await tx.payment.updateMany({ where: { id: { in: rejected.map((p) => p.id) } }, data: { status: 'PENDING', reason: null } });
  }
  const pending = (await tx.payment.findMany({ where: { txHash: { in: hashes }, status: 'PENDING', id: { notIn: rejected.map((p) => p.id) } }, select })).filter(ours);
  return {
    transfers: pending.map(transferJob),
    reopened: rejected.map(transferJob),
  };
}

async function recordInflow(tx: Tx, block: RpcBlock, asset: Asset, amount: bigint, depositAddress: string | null): Promise<void> {
  const txHash = inflowKey(block.number, block.hash);
  // At an order's deposit address it is that order's ETH: kept with it, for an admin to refund.
  const order = depositAddress ? await tx.order.findUnique({ where: { depositAddress }, select: { id: true } }) : null;
  const created = await tx.payment.createMany({
    data: [
      {
        txHash,
        depositAddress,
        orderId: order?.id ?? null,
        source: 'INFLOW' as const,
        status: 'UNRESOLVED' as const,
        asset,
        amount: amount.toString(),
        blockNumber: block.number,
        blockHash: block.hash,
        reason: depositAddress
          ? `ETH reached this order's deposit address in block ${block.number} through a contract the node could not trace; an admin will refund it`
          : `ETH arrived in block ${block.number} that no transaction the node could show explains; an admin will assign or refund it`,
      },
    ],
    skipDuplicates: true,
  });
  // Transfers through a contract in this block already found by tracing (a report the
  // verifier traced) explain part of what could not be traced here.
  if (!depositAddress) await explainInflow(tx, block.hash);
  const left = created.count === 1 ? await tx.payment.findFirst({ where: { depositAddress, txHash, logIndex: null } }) : null;
  if (left) await emitPaymentUnresolved(tx, left, left.reason ?? '');
}

/** Payments recorded in these heights under another block hash: checked again (an inflow there is measured again with the new block). */
async function movedAway(tx: Tx, linked: RpcBlock[]): Promise<IndexResult['recheck']> {
  const first = linked[0] as RpcBlock;
  const last = linked[linked.length - 1] as RpcBlock;
  const hashAt = new Map(linked.map((b) => [b.number, b.hash.toLowerCase()]));
  const recorded = await tx.payment.findMany({
    where: { blockNumber: { gte: first.number, lte: last.number }, status: { in: ['PENDING', 'COUNTED', 'UNRESOLVED', 'LATE'] } },
    select: { id: true, txHash: true, depositAddress: true, logIndex: true, blockNumber: true, blockHash: true, source: true },
  });
  const stale = recorded.filter((p) => p.blockHash !== null && hashAt.get(p.blockNumber as bigint) !== p.blockHash.toLowerCase());
  await tx.payment.deleteMany({ where: { id: { in: stale.filter((p) => p.source === 'INFLOW').map((p) => p.id) }, status: 'UNRESOLVED' } });
  return stale.filter((p) => p.source !== 'INFLOW').map(transferJob);
}

/** One tick of the indexer, with verification queued for what it found and rechecks for what a reorg dropped. */
export async function indexAndQueue(deps: IndexerDeps & { queues: Queues }, opts: { maxBlocks?: number; startBlock?: bigint } = {}): Promise<IndexResult> {
  const result = await indexBlocks(deps, opts);
  for (const t of result.transfers) await jobs.verifyPayment(deps.queues, t);
  for (const t of result.recheck) await jobs.recheckPayment(deps.queues, t);
  return result;
}
