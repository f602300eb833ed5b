import type { Hash, PublicClient } from 'viem';
import { Prisma, type Db, type DepositSweep, type DepositSweepItem } from '../infra/db.ts';
import type { Tx } from '../books/ledger.ts';
import { emitPaymentUnresolved } from '../events/webhooks.ts';

/**
 * What a confirmed sweep marks (sweeper-verify.ts confirms it): at each address that
 * flushed, the unswept deposits mined before the sweep's block, and those of its own block
 * that came before it, in transaction order while they fit in what the address flushed.
 *
 * A deposit made in the sweep's own transaction by a contract that deposits, sweeps and
 * deposits again is one payment of the sum (one row per transaction and address), of
 * which the flush moved only the first part. It is not marked: the part the flush moved is
 * written on it (`flushedEarly`) and counted by this sweep, and the rest, still at the
 * address, is what the books hold there until the sweep that marks it. So nothing of a
 * counted deposit is ever taken for ETH nobody recorded.
 *
 * What an address holds unswept is always its unswept deposits' `heldWei`: their value
 * less what such a flush moved early (the sweeper's candidates, the unseen check, the
 * reconciler all read it so). Only ETH deposits hold wei: a token deposit at the same
 * address is in the token's smallest units, swept by a token sweep (token-sweeps.ts), and
 * adds nothing to a sum of wei.
 */

/** What of a deposit is still at its address, in wei: its value less what a flush in its own transaction moved early; 0 for a token deposit. */
export const heldWei = (alias?: string) => {
  const col = (name: string) => (alias ? `${alias}."${name}"` : `"${name}"`);
  return Prisma.raw(`(CASE WHEN ${col('asset')} = 'ETH' THEN ${col('amount')} - ${col('flushedEarly')} ELSE 0 END)`);
};

export type SentSweep = DepositSweep & { items: DepositSweepItem[] };
export type Mined = { gasUsed: bigint; feeWei: bigint; blockNumber: bigint; blockHash: string };

/** A deposit mined in the sweep's own block, at or before the sweep's transaction (`sameTx`: in it). */
export type SameBlock = { id: string; address: string; heldWei: bigint; index: number; sameTx: boolean };

const dec = (wei: bigint) => new Prisma.Decimal(wei.toString());

/**
 * Deposits to the sweep's addresses mined in the sweep's own block, before it (a lower
 * transaction index) or in the sweep's own transaction (a contract that deposits and
 * flushes at once): the flush may have moved them too. Rare, so their receipts are read
 * only then; confirmSweep takes them in order while they fit in what the address flushed.
 */
export async function earlierInBlock(deps: { db: Db; chain: PublicClient }, sweep: SentSweep, receipt: { blockNumber: bigint; blockHash: Hash; transactionIndex: number }): Promise<SameBlock[]> {
  const sameBlock = await deps.db.payment.findMany({
    where: { depositAddress: { in: sweep.items.map((i) => i.address.toLowerCase()) }, asset: 'ETH', sweepId: null, status: { not: 'REJECTED' }, blockNumber: receipt.blockNumber },
    select: { id: true, txHash: true, depositAddress: true, amount: true, flushedEarly: true },
  });
  const earlier: SameBlock[] = [];
  for (const p of sameBlock) {
    if (!p.txHash.startsWith('0x') || p.txHash.length !== 66) continue; // an inflow: no transaction to place
    const other = await deps.chain.getTransactionReceipt({ hash: p.txHash as Hash });
    if (other.blockHash === receipt.blockHash && other.transactionIndex <= receipt.transactionIndex) {
      const held = BigInt(p.amount?.toFixed(0) ?? '0') - BigInt(p.flushedEarly.toFixed(0));
      earlier.push({ id: p.id, address: p.depositAddress as string, heldWei: held, index: other.transactionIndex, sameTx: other.transactionIndex === receipt.transactionIndex });
    }
  }
  return earlier.sort((a, b) => a.index - b.index);
}

/** CONFIRMED with what each address flushed, and its deposits marked swept, in one transaction (false: another worker did it). */
export async function confirmSweep(db: Db, sweep: SentSweep, mined: Mined & { reason: string | null }, flushed: Map<string, bigint>, sameBlock: SameBlock[]): Promise<boolean> {
  const items = sweep.items.map((i) => ({ ...i, flushed: flushed.get(i.address.toLowerCase()) ?? 0n })).sort((a, b) => a.address.localeCompare(b.address));
  const sweptWei = items.reduce((sum, i) => sum + i.flushed, 0n);
  return db.$transaction(async (tx) => {
    const won = await tx.depositSweep.updateMany({
      where: { id: sweep.id, status: 'SENT' },
      data: { ...mined, feeWei: dec(mined.feeWei), sweptWei: dec(sweptWei), status: 'CONFIRMED' },
    });
    if (won.count === 0) return false;
    for (const item of items) {
      await tx.depositSweepItem.update({ where: { id: item.id }, data: { sweptWei: dec(item.flushed) } });
      if (item.flushed > 0n) {
        const fit = await fitting(tx, item, mined.blockNumber, sameBlock);
        await markSwept(tx, sweep.id, item.address, mined.blockNumber, fit.ids);
        if (fit.early) await tx.payment.update({ where: { id: fit.early.id }, data: { flushedEarly: dec(fit.early.wei) } });
        // A deposit before it in its block left unmarked (it did not fit what was flushed): the
        // books there are not understood, and its excess may be that deposit. Never booked as
        // refundable then: the reconciler reports the address ('deposit-missing').
        const leftOut = sameBlock.some((p) => p.address.toLowerCase() === item.address.toLowerCase() && !p.sameTx && !fit.ids.includes(p.id));
        if (!leftOut) await recordSweptUnseen(tx, { id: sweep.id, txHash: sweep.txHash, ...mined }, item);
      }
    }
    return true;
  });
}

/**
 * Of the deposits in the sweep's block, those the address's flush covers after the ones
 * mined before it, in order; and a deposit of the sweep's own transaction that does not
 * fit (part of it arrived after the flush): the part the flush moved of it.
 */
async function fitting(tx: Tx, item: { address: string; flushed: bigint }, block: bigint, sameBlock: SameBlock[]): Promise<{ ids: string[]; early?: { id: string; wei: bigint } }> {
  const mine = sameBlock.filter((p) => p.address.toLowerCase() === item.address.toLowerCase());
  if (mine.length === 0) return { ids: [] };
  const [before] = await tx.$queryRaw<{ sum: string | null }[]>`
    SELECT SUM(${heldWei()})::text AS sum FROM "Payment"
    WHERE "depositAddress" = ${item.address.toLowerCase()} AND "sweepId" IS NULL AND "status" <> 'REJECTED' AND "blockNumber" < ${block}`;
  let covered = BigInt(before?.sum ?? '0');
  const ids: string[] = [];
  for (const p of mine) {
    if (covered + p.heldWei > item.flushed) {
      const moved = item.flushed - covered;
      return p.sameTx && moved > 0n ? { ids, early: { id: p.id, wei: moved } } : { ids };
    }
    covered += p.heldWei;
    ids.push(p.id);
  }
  return { ids };
}

/**
 * What an address flushed beyond what the sweep accounts for there (the deposits it marked,
 * and the part of a deposit of its own transaction it moved early): ETH that reached it
 * unseen (through a contract, after its watch ended, in the moments before the sweep):
 * recorded as its order's UNRESOLVED inflow at the sweep's block, swept by it, for an
 * admin to refund. The books never move ETH they do not know of.
 */
async function recordSweptUnseen(tx: Tx, sweep: { id: string; txHash: string; blockNumber: bigint; blockHash: string }, item: { address: string; flushed: bigint }): Promise<void> {
  const address = item.address.toLowerCase();
  const [accounted] = await tx.$queryRaw<{ sum: string | null }[]>`
    SELECT SUM(CASE WHEN "sweepId" = ${sweep.id}::uuid THEN ${heldWei()} ELSE "flushedEarly" END)::text AS sum FROM "Payment"
    WHERE "depositAddress" = ${address} AND "status" <> 'REJECTED'
      AND ("sweepId" = ${sweep.id}::uuid OR ("txHash" = ${sweep.txHash.toLowerCase()} AND "sweepId" IS NULL))`;
  const excess = item.flushed - BigInt(accounted?.sum ?? '0');
  if (excess <= 0n) return;
  const order = await tx.order.findUnique({ where: { depositAddress: address }, select: { id: true } });
  const reason = `A sweep moved ETH from this order's deposit address that the shop had not recorded (it arrived through a contract unseen); an admin will refund it`;
  const txHash = `swept-${sweep.txHash.slice(2, 58)}`;
  const created = await tx.payment.createMany({
    data: [{ txHash, depositAddress: address, orderId: order?.id ?? null, sweepId: sweep.id, source: 'INFLOW', status: 'UNRESOLVED', amount: dec(excess), blockNumber: sweep.blockNumber, blockHash: sweep.blockHash, reason }],
    skipDuplicates: true,
  });
  if (created.count === 1) await emitPaymentUnresolved(tx, await tx.payment.findFirstOrThrow({ where: { txHash, depositAddress: address, logIndex: null } }), reason);
}

/**
 * Marks an address's unswept ETH deposits mined before `beforeBlock` (and `alsoIds`, mined
 * earlier in that block) swept by `sweepId`: the caller has the sweep's confirmed Flushed
 * event of this address. A flush moves ETH only: the address's token deposits stay for a
 * token sweep (token-sweeps.ts). Idempotent.
 */
export async function markSwept(tx: Tx | Db, sweepId: string, address: string, beforeBlock: bigint, alsoIds: string[] = []): Promise<number> {
  return tx.$executeRaw`
    UPDATE "Payment" SET "sweepId" = ${sweepId}::uuid, "updatedAt" = now()
    WHERE "depositAddress" = ${address.toLowerCase()} AND "asset" = 'ETH' AND "sweepId" IS NULL AND "status" <> 'REJECTED'
      AND ("blockNumber" < ${beforeBlock} OR "id" = ANY(${alsoIds}::uuid[]))`;
}
