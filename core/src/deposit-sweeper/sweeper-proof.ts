import type { Hash, PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import type { Db } from '../infra/db.ts';
import { spentInBlock } from '../rails/eth/address-activity.ts';
import { confirmedIndexedBlock, indexerHalt } from '../chain/cursor.ts';
import { balanceAfter, blockWithTransactions } from '../chain/rpc.ts';
import { depositMoney } from '../payments/deposits.ts';
import type { Tracer } from '../chain/trace.ts';
import { ethText } from './sweeper-wallet.ts';

/**
 * What a mined sweep must show before it is CONFIRMED and marks deposits swept
 * (docs/decisions.md, "Following a sweep"). Its Flushed events alone prove nothing: they
 * are emitted by the code at the deposit address, and a look-alike factory's forwarder can
 * emit them while paying someone else.
 *
 * 1. The indexer has passed its block, on the same chain, and is not halted: every deposit
 *    mined up to it is recorded, so what the sweep moved is marked swept, not taken for
 *    ETH nobody recorded (and recorded as a refundable inflow beside the deposit).
 * 2. The receiving address received what each deposit address flushed:
 *    - on a node that traces, the calls from each deposit address to the receiving address
 *      in the sweep's transaction carry exactly its Flushed amount;
 *    - on a node that cannot, the receiving address's balance change at the block (plus
 *      what it sent itself: fees, and values of its own transactions) covers every flush of
 *      the shop's deposit addresses in that block plus everything else the indexer recorded
 *      arriving there in it (transfers, inflows).
 *
 * What a balance can and cannot prove: it proves the block's total, never who paid it. A
 * flush paid elsewhere is caught unless ETH the indexer did not record as such arrived in
 * the same block to cover it, and the indexer books any ETH it cannot explain as an inflow
 * after taking the flushes out (chain/address-activity.ts), so an unseen payment through a
 * contract in that block can cover a forged flush of at most its own size, and then shows
 * as that much less inflow. It needs the node to keep the state of the block and its
 * parent. A receiving address that is a contract paying out through internal calls in the
 * block makes its balance rise less than it received: its sweeps wait (never the other
 * way). Several sweeps in one block are proven together: one that did not pay makes them
 * all wait. A node that traces proves each address of each sweep.
 *
 * A sweep not shown to have paid stays SENT with the reason (UNPROVEN first), followed
 * again every run; its deposits stay unswept, and the reconciler reports it
 * ('sweep-unproven').
 */
export const UNPROVEN = 'Not shown to have paid the receiving address';

type Deps = { config: AppConfig; db: Db; chain: PublicClient; tracer: Tracer };
type Block = { number: bigint; hash: Hash };

/** Why the sweep mined in `block` must wait for the indexer, or null once it has passed it. */
export async function indexerWait(deps: Omit<Deps, 'tracer'>, block: Block): Promise<string | null> {
  const mined = `Mined in block ${block.number}`;
  const halt = await indexerHalt(deps.db, deps.config.chainId);
  if (halt) return `${mined}: confirmed once the indexer runs again (it is halted: ${halt.reason})`;
  const at = await confirmedIndexedBlock(deps, deps.config.paymentConfirmations);
  if (!at || at.number < block.number) return `${mined}: confirmed once the indexer has passed it${at ? ` (it is at block ${at.number})` : ''}`;
  const followed = await deps.db.indexedBlock.findUnique({ where: { chainId_number: { chainId: deps.config.chainId, number: block.number } } });
  if (followed && followed.hash.toLowerCase() !== block.hash.toLowerCase()) return `${mined} (${block.hash}), which the indexer followed as ${followed.hash}: confirmed once both agree`;
  return null;
}

/**
 * Why the sweep is not shown to have paid the receiving address what its addresses
 * flushed (`flushed`: by address, from its own Flushed events), or null.
 */
export async function unprovenReason(deps: Deps, sweep: { txHash: string; items: { address: string }[] }, block: Block, flushed: Map<string, bigint>): Promise<string | null> {
  const claimed = sweep.items.map((i) => ({ address: i.address.toLowerCase(), wei: flushed.get(i.address.toLowerCase()) ?? 0n })).filter((c) => c.wei > 0n);
  if (claimed.length === 0) return null;
  const receiving = deps.config.receivingAddress.toLowerCase();
  let delivery: Awaited<ReturnType<Tracer['transaction']>>;
  try {
    delivery = await deps.tracer.transaction(sweep.txHash, receiving);
  } catch (err) {
    // A node that no longer keeps the state to trace it (or fails to): the balance proof at
    // its block, while the node keeps that; else it waits, saying why, for an admin.
    const instead = await balanceShortfall(deps, block);
    return instead && `${instead} (its trace failed: ${String((err as Error)?.message ?? err).slice(0, 200)})`;
  }
  if (!delivery) return balanceShortfall(deps, block);
  const short = claimed.flatMap((c) => {
    const delivered = delivery.parts.filter((p) => p.from.toLowerCase() === c.address).reduce((sum, p) => sum + p.valueWei, 0n);
    return delivered === c.wei ? [] : [`its trace shows ${ethText(delivered)} ETH reaching it from ${c.address}, whose Flushed event says ${ethText(c.wei)} ETH`];
  });
  if (short.length === 0) return null;
  return `${UNPROVEN}: ${short[0]}${short.length > 1 ? ` (and ${short.length - 1} more address${short.length > 2 ? 'es' : ''})` : ''}`;
}

const signed = (wei: bigint) => (wei < 0n ? `-${ethText(-wei)}` : ethText(wei));

/** A node that cannot trace: the receiving address's balance change at the block against what must have reached it. */
async function balanceShortfall(deps: Deps, block: Block): Promise<string | null> {
  const receiving = deps.config.receivingAddress.toLowerCase();
  const read = await blockWithTransactions(deps.chain, block.number);
  if (read.hash.toLowerCase() !== block.hash.toLowerCase()) return `Mined in block ${block.number}, which the node now shows with another hash: read again`;
  const [before, after] = await Promise.all([balanceAfter(deps.chain, receiving, read.parentHash), balanceAfter(deps.chain, receiving, read.hash)]);
  if (before === null || after === null) return `${UNPROVEN}: the node neither traces the sweep nor keeps the receiving address's balance at block ${block.number}`;
  const rose = after - before + (await spentInBlock(deps.chain, read, receiving));
  const flushes = [...(await depositMoney(deps).movedIn(read)).values()].reduce((sum, v) => sum + v, 0n);
  // Its own transactions to itself arrive too, but are no payment the indexer records.
  const toItself = read.transactions.filter((t) => t.from.toLowerCase() === receiving && t.to?.toLowerCase() === receiving).reduce((sum, t) => sum + BigInt(t.value), 0n);
  const [recorded] = await deps.db.$queryRaw<{ sum: string | null }[]>`
    SELECT SUM("amount")::text AS sum FROM "Payment"
    WHERE "blockNumber" = ${block.number} AND lower("blockHash") = ${block.hash.toLowerCase()} AND "depositAddress" IS NULL AND "asset" = 'ETH' AND "status" <> 'REJECTED'`;
  const others = BigInt(recorded?.sum ?? '0') + toItself;
  if (rose >= flushes + others) return null;
  return `${UNPROVEN}: its balance rose ${signed(rose)} ETH in block ${block.number} (with what it sent), less than the ${ethText(flushes)} ETH the deposit addresses flushed there and the ${ethText(others)} ETH of other transfers the indexer recorded in it`;
}
