import { centsToString, toCents } from '../contract/money.ts';
import { Prisma, type Db } from '../infra/db.ts';
import { postEntries } from '../books/ledger.ts';
import { priceToAnswer } from '../rails/eth/amounts.ts';
import { tagIn, unitsToUsdCents } from '../rails/value.ts';
import { explainInflow } from './inflows.ts';
import { isPayable } from './order-states.ts';
import { lockOrder, lockPayment, refreshOrderStatus } from './payment-locks.ts';
import type { MinedTransfer } from './transfer.ts';

/**
 * A transfer's other state changes, each in one transaction under its payment's lock
 * (payment-locks.ts): waiting (mempool, confirmations), rejected, refunded, following
 * its block after a reorg, and gone from the chain. Counting is settle.ts.
 */

/**
 * A transfer the worker cannot count yet: seen in the mempool, or mined without enough
 * confirmations. It is attributed by its tag to a payable order right away, which puts
 * the order in VERIFYING and keeps it from expiring; the first time it is seen in the
 * mempool is kept (a payment sent inside its quote keeps that quote's price). A
 * transaction still in the mempool has moved nothing yet: it is attributed only to an
 * order it was reported for, by whoever reported it first or later (anyone could
 * broadcast one carrying another buyer's tag and never let it be mined, to hold that
 * order and its stock; and anyone watching the mempool could report a buyer's hash for
 * an order of their own first, to take the buyer's hold away).
 */
export async function noteWaitingTransfer(
  db: Db,
  paymentId: string,
  seen: { valueWei: bigint; from: string; pending: boolean; calls?: number; block?: { number: bigint; hash: string; confirmations: number } },
  now = new Date(),
): Promise<void> {
  await db.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment || payment.status !== 'PENDING') return;
    const data: Prisma.PaymentUncheckedUpdateInput = { fromAddress: seen.from.toLowerCase(), amount: new Prisma.Decimal(seen.valueWei.toString()) };
    if (seen.pending && !payment.seenPendingAt) data.seenPendingAt = now;
    if (seen.block) Object.assign(data, { blockNumber: seen.block.number, blockHash: seen.block.hash, confirmations: seen.block.confirmations });
    const tag = tagIn(payment.asset, seen.valueWei);
    // A deposit is its address's order's (the indexer finds it mined, never in the mempool).
    const order = payment.orderId
      ? null
      : payment.depositAddress
        ? await lockOrder(tx, { depositAddress: payment.depositAddress })
        : tag > 0 && (seen.calls ?? 1) === 1
          ? await lockOrder(tx, { tag })
          : null;
    const reportedFor = async (orderId: string) => (await tx.paymentReport.count({ where: { paymentId, orderId } })) > 0;
    // Dust carrying the tag holds no order open (nor keeps it from being cancelled).
    const latest = order?.quotes.filter((q) => q.asset === payment.asset).at(-1);
    const dust = latest ? unitsToUsdCents(payment.asset, seen.valueWei, priceToAnswer(latest.unitUsd.toFixed(8))) === 0n : false;
    if (order && !dust && isPayable(order.status) && (!seen.pending || (await reportedFor(order.id)))) {
      data.orderId = order.id;
      if (order.status !== 'VERIFYING') await tx.order.update({ where: { id: order.id }, data: { status: 'VERIFYING' } });
    }
    await tx.payment.update({ where: { id: paymentId }, data });
  });
}

/**
 * A transaction that moved no value to the shop (reverted, another recipient, another
 * chain), or one the node never knew or never mined (the indexer reopens it if it is
 * mined after all).
 */
export async function rejectTransfer(db: Db, paymentId: string, reason: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment || payment.status !== 'PENDING') return;
    await tx.payment.update({ where: { id: paymentId }, data: { status: 'REJECTED', reason, orderId: null } });
    if (payment.orderId) await refreshOrderStatus(tx, payment.orderId);
  });
}

/**
 * A refund of a transfer's whole value (UNRESOLVED or LATE) is requested: the transfer
 * leaves what admins assign (REFUNDED: its value belongs to the refund) and a Refund row
 * waits in the payout queue, valued at the ETH received. Its order, if it was waiting on
 * it (LATE), goes back to where its other transfers leave it; the buyer sees the refund
 * on that order. The wallet is the payer's (the one address that sent all of it) unless
 * the caller names one; a transfer nobody paid alone (several calls, ETH passed through
 * its caller) or an inflow has none: the caller must name it.
 */
export async function refundTransfer(
  db: Db,
  input: { paymentId: string; wallet?: string; actorId: string },
  /** Runs in the creating transaction with the new refund (an admin's: its approval). */
  afterCreate?: (tx: Prisma.TransactionClient, refundIds: string[]) => Promise<unknown>,
): Promise<{ refundId: string } | 'missing' | 'not-refundable' | 'no-sender' | 'no-single-payer' | 'explained'> {
  const seen = await db.payment.findUnique({ where: { id: input.paymentId }, select: { source: true, blockHash: true } });
  return db.$transaction(async (tx) => {
    // An unexplained inflow: what transfers traced in its block since explain is taken out
    // first (under the block's inflow lock, as settlement takes it): never refunded and counted.
    if (seen?.source === 'INFLOW' && seen.blockHash) {
      await explainInflow(tx, seen.blockHash);
      if (!(await tx.payment.findUnique({ where: { id: input.paymentId }, select: { id: true } }))) return 'explained';
    }
    const payment = await lockPayment(tx, input.paymentId);
    if (!payment) return 'missing';
    if (payment.status !== 'UNRESOLVED' && payment.status !== 'LATE') return 'not-refundable';
    const wallet = input.wallet ?? payment.payerAddress;
    if (!wallet) return payment.source === 'INFLOW' ? 'no-sender' : 'no-single-payer';
    // The buyer of the order it was attributed to (by its tag, or an admin: a LATE one);
    // never the one who reported it (anyone can report anyone's transfer).
    const orderId = payment.orderId;
    const order = orderId ? await tx.order.findUnique({ where: { id: orderId }, select: { userId: true } }) : null;
    const refund = await tx.refund.create({
      data: {
        source: 'TRANSFER',
        paymentId: payment.id,
        orderId: order ? orderId : null,
        userId: order?.userId ?? null,
        wallet,
        walletSource: input.wallet ? 'admin' : 'sender',
        asset: payment.asset,
        amount: payment.amount ?? new Prisma.Decimal(0),
        amountUsd: payment.usdValue,
        requestedById: input.actorId,
      },
    });
    await tx.payment.update({ where: { id: payment.id }, data: { status: 'REFUNDED', reason: `Its value is being refunded (refund ${refund.id})`, orderId: null } });
    if (payment.orderId) await refreshOrderStatus(tx, payment.orderId);
    await afterCreate?.(tx, [refund.id]);
    return { refundId: refund.id };
  });
}



/** A settled transfer whose block moved (re-mined after a reorg), confirmed again: follow it. */
export async function followBlock(db: Db, paymentId: string, t: MinedTransfer): Promise<void> {
  await db.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment || !['COUNTED', 'UNRESOLVED', 'LATE'].includes(payment.status) || payment.blockHash === t.blockHash) return;
    await tx.payment.update({ where: { id: paymentId }, data: { blockHash: t.blockHash, blockNumber: t.blockNumber, confirmations: t.confirmations } });
  });
}

/**
 * A transfer is no longer on the canonical chain (reorg): take it back out. A counted one
 * leaves its order (a paid order falls back to VERIFYING and its referral reward is
 * reversed, once per paid state, even when the referrer has spent it: the balance may go
 * below zero and later credit repays it); an unresolved or late one waits again.
 */
export async function transferGone(db: Db, paymentId: string, reason: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment || !['COUNTED', 'UNRESOLVED', 'LATE'].includes(payment.status)) return false;
    const gone = { status: 'PENDING' as const, reason, confirmations: 0, blockHash: null, blockNumber: null };
    if (payment.status !== 'COUNTED' || !payment.orderId) {
      await tx.payment.update({ where: { id: payment.id }, data: gone });
      return true;
    }
    const order = await lockOrder(tx, { id: payment.orderId });
    await tx.payment.update({ where: { id: payment.id }, data: gone });
    if (!order) return true;
    const paidCents = toCents(order.paidUsd.toFixed(2)) - toCents((payment.usdValue ?? new Prisma.Decimal(0)).toFixed(2));
    const totalCents = toCents(order.totalPrice.toFixed(2));
    const stillPaid = paidCents >= totalCents;
    const data: Prisma.OrderUpdateInput = {
      paidUsd: new Prisma.Decimal(centsToString(paidCents > 0n ? paidCents : 0n)),
      overpaidUsd: new Prisma.Decimal(centsToString(stillPaid ? paidCents - totalCents : 0n)),
    };
    if (order.status === 'PAID' && !stillPaid) {
      Object.assign(data, { status: 'VERIFYING', paidAt: null, expiresAt: null });
      // Unpaid, its items earn nothing: their term is set again if it is paid again.
      await tx.orderItem.updateMany({ where: { orderId: order.id }, data: { creditEndsAt: null } });
      const reward = await tx.ledgerEntry.findUnique({ where: { idempotencyKey: `referral:${order.id}:v${order.paidVersion}` } });
      if (reward) {
        await postEntries(
          tx,
          [
            {
              userId: reward.userId,
              account: 'ACTIVE',
              amount: reward.amount.negated(),
              kind: 'REFERRAL_REVERSAL',
              reference: `order:${order.id}:reorg`,
              idempotencyKey: `referral-reversal:${order.id}:v${order.paidVersion}`,
            },
          ],
          { allowNegative: true },
        );
      }
    } else if (order.status !== 'PAID' && isPayable(order.status)) {
      data.status = paidCents > 0n ? 'UNDERPAID' : 'VERIFYING';
    }
    await tx.order.update({ where: { id: order.id }, data });
    return true;
  });
}
