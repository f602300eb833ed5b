import type { Hash, PublicClient, Transaction } from 'viem';
import type { TokenSymbol } from '../contract/tokens.ts';
import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import type { Tracer } from '../chain/trace.ts';
import type { Logger } from '../infra/logger.ts';
import { factoryDepositAddressesAmong } from '../payments/deposits.ts';
import { flushedBy, flushedEvent } from '../deposits/abi.ts';

/**
 * Flushes of a deposit address the books have not accounted for, and recording one as a
 * sweep to follow (docs/decisions.md, "Flushes the shop did not send"). The one rule:
 * ETH at an address may be netted against its unswept deposits, or a sweep marked as
 * moving them, only while no Flushed event of the address since its oldest unswept
 * deposit belongs to a transaction other than a CONFIRMED sweep's. Otherwise that flush
 * moved some of them: it is recorded and confirmed first (oldest first), and only then
 * are the deposits counted against later flushes or balances.
 */
export type SweepDeps = { config: AppConfig; db: Db; chain: PublicClient; tracer: Tracer; logger: Logger };

/** The mark of a sweep someone else sent (found on chain): the shop paid none of its gas. */
export const FOREIGN_MARK = 'Sent by another account: the shop paid no gas';

/**
 * The transactions (oldest first) that flushed `address` from block `from` up to `to`
 * (in block `to`, only those before transaction index `beforeIndex` when given), other
 * than `except` and than CONFIRMED sweeps: flushes the books have not accounted for.
 */
export async function unaccountedFlushes(
  deps: { db: Db; chain: PublicClient },
  address: string,
  range: { from: bigint; to: bigint | 'latest'; beforeIndex?: number; except?: string },
): Promise<Hash[]> {
  const logs = await flushLogs(deps.chain, address, range.from, range.to);
  const before = logs.filter((l) => range.beforeIndex === undefined || l.blockNumber !== range.to || (l.transactionIndex ?? 0) < range.beforeIndex);
  const hashes = [...new Set(before.flatMap((l) => (l.transactionHash ? [l.transactionHash.toLowerCase() as Hash] : [])))].filter((h) => h !== range.except?.toLowerCase());
  if (hashes.length === 0) return [];
  const confirmed = await deps.db.depositSweep.findMany({ where: { txHash: { in: hashes }, status: 'CONFIRMED' }, select: { txHash: true } });
  const done = new Set(confirmed.map((s) => s.txHash.toLowerCase()));
  return hashes.filter((h) => !done.has(h));
}

/** Blocks one eth_getLogs asks about: providers refuse wider ranges (10,000 is a common cap). */
export const LOG_WINDOW = 10_000n;

/** The Flushed events of `address` from `from` to `to`, asked `window` blocks at a time. */
export async function flushLogs(chain: PublicClient, address: string, from: bigint, to: bigint | 'latest', window = LOG_WINDOW) {
  return windowedLogs(chain, from, to, (fromBlock, toBlock) => chain.getLogs({ address: address as Hash, event: flushedEvent, fromBlock, toBlock }), window);
}

/** Logs from `from` to `to` (the latest block: its number read once), `read` asked `window` blocks at a time. */
export async function windowedLogs<T>(chain: PublicClient, from: bigint, to: bigint | 'latest', read: (fromBlock: bigint, toBlock: bigint) => Promise<T[]>, window = LOG_WINDOW): Promise<T[]> {
  const end = to === 'latest' ? await chain.getBlockNumber({ cacheTime: 0 }) : to;
  const logs: T[] = [];
  for (let start = from; start <= end; start += window) {
    const stop = start + window - 1n < end ? start + window - 1n : end;
    logs.push(...(await read(start, stop)));
  }
  return logs;
}

/**
 * Records a transaction that flushed the shop's deposit addresses as a sweep to follow
 * (SENT), with an item for each address its Flushed events name that the shop's factory
 * gave an order (payments/deposits.ts factoryDepositAddressesAmong). False: nothing of the
 * shop's, or already recorded.
 */
export async function recordFoundSweep(deps: SweepDeps, hash: Hash): Promise<boolean> {
  const [tx, receipt] = await Promise.all([deps.chain.getTransaction({ hash }), deps.chain.getTransactionReceipt({ hash })]);
  const flushed = flushedBy(receipt.logs);
  const ours = await factoryDepositAddressesAmong(deps.db, deps.config.depositFactoryAddress, [...flushed.keys()]);
  const items = [...ours].sort().map((address) => ({ address, expectedWei: new Prisma.Decimal((flushed.get(address) ?? 0n).toString()) }));
  if (items.length === 0) return false;
  return recordFound(deps, tx, { kind: 'ETH', items });
}

type FoundItem = { address: string; expectedWei: Prisma.Decimal; asset?: TokenSymbol; expectedAmount?: Prisma.Decimal };

/**
 * Writes a transaction found on chain that moved the shop's deposits as a sweep to follow
 * (SENT), marked as sent by someone else unless the gas wallet sent it (its fee is then
 * recorded as 0 on confirmation). Its kind's confirmation rule reads what it moved
 * (sweeper-verify.ts). False: already recorded (another worker did it first).
 */
export async function recordFound(deps: SweepDeps, tx: Transaction, found: { kind: 'ETH' | 'TOKENS'; items: FoundItem[] }): Promise<boolean> {
  const { items } = found;
  const from = tx.from.toLowerCase();
  const foreign = from !== deps.config.sweeperAddress;
  try {
    await deps.db.depositSweep.create({
      data: {
        txHash: tx.hash.toLowerCase(),
        fromAddress: from,
        nonce: tx.nonce,
        gasLimit: tx.gas,
        kind: found.kind,
        maxFeePerGasWei: new Prisma.Decimal((tx.maxFeePerGas ?? tx.gasPrice ?? 0n).toString()),
        expectedWei: items.reduce((sum, i) => sum.plus(i.expectedWei), new Prisma.Decimal(0)),
        reason: foreign ? `${FOREIGN_MARK} (${from}): found on chain` : 'Found on chain: sent by the sweeper, its row not written before (an external signer, a crash)',
        items: { create: items },
      },
    });
  } catch (err) {
    // Another worker recorded it first.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') return false;
    throw err;
  }
  deps.logger.warn({ msg: 'a sweep the shop did not send emptied its deposit addresses: recorded, and followed like its own', tx_hash: tx.hash, from_address: from, kind: found.kind, addresses: items.length });
  return true;
}
