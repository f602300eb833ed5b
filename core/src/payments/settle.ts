import type { AppConfig } from '../config.ts';
import { centsToString, toCents } from '../contract/money.ts';
import { Prisma, type Db } from '../db.ts';
import { postEntries, type Tx } from '../ledger.ts';
import { priceToAnswer, tagOf, weiToUsdCents } from './amounts.ts';
import { dueCents, isPayable, ORDER_DELETED } from './orders.ts';
import { reserveStock } from './stock.ts';
import type { MinedTransfer } from './transfer.ts';

/**
 * Every change of a payment's state, each in one transaction with the payment row
 * locked first (then its order, then package rows, then users), so the worker's
 * verification, a recheck after a reorg and an admin's assignment of the same transfer
 * serialize: an order is paid exactly once and its referral reward posted once per paid
 * state. Value that reached the shop is never dropped: a transfer is REJECTED only when
 * it moved no value to the shop; otherwise it pays its order or waits, UNRESOLVED or
 * LATE, for an admin.
 */
export type CountOutcome =
  | { kind: 'counted'; orderId: string; orderStatus: string; paidNow: boolean }
  | { kind: 'late'; orderId: string; reason: string }
  | { kind: 'unresolved'; reason: string }
  | { kind: 'already'; orderId: string | null }
  /** An admin's assignment that the rules refuse (nothing changed). */
  | { kind: 'refused'; reason: string };

const HOUR = 3600_000;
/** A quote counts for a transfer mined up to a minute before it was issued (clocks differ). */
const QUOTE_SLACK_MS = 60_000;

export const NOT_FOUND = 'Transaction not found on chain';
export const NEVER_MINED = 'Transaction was never mined';
/** Reports given up on: the indexer reopens them if it finds the transaction mined after all. */
export const GIVEN_UP = [NOT_FOUND, NEVER_MINED];

export const NO_MATCHING_ORDER = 'No open order matches this amount; an admin will assign or refund it';
export const MINED_BEFORE_ORDER = 'Mined before the order was placed; an admin will assign or refund it';

async function lockPayment(tx: Tx, paymentId: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Payment" WHERE "id" = ${paymentId}::uuid FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
}

async function lockOrder(tx: Tx, where: { id: string } | { tag: number }) {
  const rows =
    'id' in where
      ? await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Order" WHERE "id" = ${where.id}::uuid FOR UPDATE`
      : await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Order" WHERE "paymentTag" = ${where.tag} FOR UPDATE`;
  const id = rows[0]?.id;
  if (!id) return null;
  return tx.order.findUniqueOrThrow({ where: { id }, include: { quotes: { orderBy: { createdAt: 'asc' } }, user: { select: { referredById: true } } } });
}

type LockedOrder = NonNullable<Awaited<ReturnType<typeof lockOrder>>>;

/**
 * The price a transfer is valued at: the quote it paid (exactly its amount, mined while
 * that quote was open, or seen in the mempool while it was open and mined later), else
 * any quote open when it was mined; null when no quote covers it (a late transfer).
 */
function quoteFor(order: LockedOrder, t: MinedTransfer, seenPendingAt: Date | null, graceMs: number) {
  const open = (q: LockedOrder['quotes'][number], at: number) => q.createdAt.getTime() - QUOTE_SLACK_MS <= at && at <= q.expiresAt.getTime();
  const mined = t.blockTimestamp.getTime();
  // Sent inside the quote (seen in the mempool while it was open) and mined within the
  // grace after it: the buyer paid the price the shop gave. Not later: a transaction
  // held back for days must not pick the better of two prices.
  const sentInside = (q: LockedOrder['quotes'][number]) =>
    seenPendingAt !== null && open(q, seenPendingAt.getTime()) && mined <= q.expiresAt.getTime() + graceMs;
  const exact = order.quotes.find((q) => q.amountWei.toFixed(0) === t.valueWei.toString() && (open(q, mined) || sentInside(q)));
  return exact ?? order.quotes.filter((q) => open(q, mined)).at(-1) ?? null;
}

const blockFields = (t: MinedTransfer) => ({
  fromAddress: t.from.toLowerCase(),
  valueWei: new Prisma.Decimal(t.valueWei.toString()),
  blockNumber: t.blockNumber,
  blockHash: t.blockHash,
  blockTimestamp: t.blockTimestamp,
  confirmations: t.confirmations,
});

/**
 * Counts a confirmed transfer to the shop toward its order: the order whose tag its
 * value carries (the worker), or the one an admin names (`assignTo`, only for
 * UNRESOLVED and LATE transfers, with the same rules). The caller has checked that it
 * moved value to the shop and has its confirmations (transfer.ts).
 */
export async function settleTransfer(
  db: Db,
  config: AppConfig,
  input: { paymentId: string; transfer: MinedTransfer; currentAnswer: () => Promise<bigint>; assignTo?: string; now?: Date },
): Promise<CountOutcome> {
  const now = input.now ?? new Date();
  const { transfer: t, assignTo } = input;
  // A late transfer is valued at today's price: read before the transaction (a network call).
  let current: bigint | undefined;
  const currentAnswer = async () => (current ??= await input.currentAnswer());
  for (let pass = 0; pass < 2; pass++) {
    const needPrice = pass === 1;
    const result = await db.$transaction(async (tx): Promise<CountOutcome | 'need-price'> => {
      const payment = await lockPayment(tx, input.paymentId);
      if (!payment) return { kind: 'unresolved', reason: 'Payment record missing' };
      if (payment.status === 'COUNTED') return { kind: 'already', orderId: payment.orderId };
      if (payment.status === 'REFUNDED') return { kind: 'refused', reason: 'This transfer was refunded' };
      if (assignTo && payment.status !== 'UNRESOLVED' && payment.status !== 'LATE') {
        return { kind: 'refused', reason: 'Only unresolved or late transfers can be assigned' };
      }
      if (assignTo && payment.blockHash && payment.blockHash !== t.blockHash) {
        return { kind: 'refused', reason: 'This transfer moved to another block since it was read; try again' };
      }
      const tag = tagOf(t.valueWei);
      const order = assignTo ? await lockOrder(tx, { id: assignTo }) : tag > 0 ? await lockOrder(tx, { tag }) : null;
      const unresolved = async (reason: string): Promise<CountOutcome> => {
        if (assignTo) return { kind: 'refused', reason };
        await tx.payment.update({ where: { id: payment.id }, data: { ...blockFields(t), orderId: null, status: 'UNRESOLVED', reason } });
        // An order it was attached to while it waited (its tag, seen early) no longer waits on it.
        if (payment.orderId) await refreshOrderStatus(tx, payment.orderId);
        return { kind: 'unresolved', reason };
      };
      if (!order) return assignTo ? { kind: 'refused', reason: 'Order not found' } : unresolved(NO_MATCHING_ORDER);
      if (order.status === 'DELETED') return unresolved(assignTo ? 'This order was deleted' : ORDER_DELETED);
      if (order.placedAtBlock !== null && t.blockNumber <= order.placedAtBlock) {
        return unresolved(assignTo ? 'This transfer was mined before the order was placed' : MINED_BEFORE_ORDER);
      }

      const quote = quoteFor(order, t, payment.seenPendingAt, config.mempoolGraceMinutes * 60_000);
      const late = !quote && !assignTo;
      if (!quote && !needPrice && current === undefined) return 'need-price';
      const answer = quote ? priceToAnswer(quote.ethUsd.toFixed(8)) : (current as bigint);
      const usdCents = weiToUsdCents(t.valueWei, answer);
      const fields = { ...blockFields(t), orderId: order.id, usdValue: new Prisma.Decimal(centsToString(usdCents)), quoteId: quote?.id ?? null };
      const due = dueCents(order);
      const needsStock = !order.stockReserved && order.status !== 'PAID';

      const wait = async (reason: string): Promise<CountOutcome> => {
        await tx.payment.update({ where: { id: payment.id }, data: { ...fields, status: 'LATE', reason } });
        if (order.status !== 'PAID') await tx.order.update({ where: { id: order.id }, data: { status: 'LATE' } });
        return { kind: 'late', orderId: order.id, reason };
      };
      if (!assignTo && (late || needsStock) && order.status !== 'PAID' && usdCents < due) {
        // Late, or for an order that already gave its stock back: it pays the order only
        // if it covers everything still due at today's price; otherwise an admin resolves it.
        return wait(
          `Paid after the quote expired and worth $${centsToString(usdCents)} at today's price, short of $${centsToString(due)}; an admin will resolve it`,
        );
      }
      if (needsStock) {
        const short = await reserveStock(tx, order.id);
        if (short) {
          const reason = `The stock of this order is gone (${short.name}: ${short.left} left)`;
          return assignTo ? { kind: 'refused', reason } : wait(`Paid after the order released its stock, and the stock is gone; an admin will resolve it`);
        }
      }
      const counted = await count(tx, config, { paymentId: payment.id, order, fields, usdCents, late, now });
      // A late transfer an admin assigned to another order: the order it was waiting with moves on.
      if (payment.orderId && payment.orderId !== order.id) await refreshOrderStatus(tx, payment.orderId);
      return counted;
    });
    if (result !== 'need-price') return result;
    await currentAnswer();
  }
  throw new Error('unreachable: the price was read');
}

async function count(
  tx: Tx,
  config: AppConfig,
  input: { paymentId: string; order: LockedOrder; fields: Prisma.PaymentUncheckedUpdateInput; usdCents: bigint; late: boolean; now: Date },
): Promise<CountOutcome> {
  const { order, now } = input;
  await tx.payment.update({
    where: { id: input.paymentId },
    data: { ...input.fields, status: 'COUNTED', reason: input.late ? 'Paid after the quote expired; valued at the price when verified' : null },
  });
  const paidCents = toCents(order.paidUsd.toFixed(2)) + input.usdCents;
  const totalCents = toCents(order.totalPrice.toFixed(2));
  const paid = new Prisma.Decimal(centsToString(paidCents));
  if (order.status === 'PAID') {
    // Another transfer to an order already paid: recorded as overpayment.
    await tx.order.update({ where: { id: order.id }, data: { paidUsd: paid, overpaidUsd: new Prisma.Decimal(centsToString(paidCents - totalCents)) } });
    return { kind: 'counted', orderId: order.id, orderStatus: 'PAID', paidNow: false };
  }
  if (paidCents < totalCents) {
    await tx.order.update({ where: { id: order.id }, data: { paidUsd: paid, status: 'UNDERPAID' } });
    return { kind: 'counted', orderId: order.id, orderStatus: 'UNDERPAID', paidNow: false };
  }
  const items = await tx.orderItem.findMany({ where: { orderId: order.id }, select: { durationDays: true } });
  const durationDays = Math.max(...items.map((i) => i.durationDays), 1);
  const version = order.paidVersion + 1;
  await tx.order.update({
    where: { id: order.id },
    data: {
      status: 'PAID',
      paidAt: now,
      expiresAt: new Date(now.getTime() + durationDays * 24 * HOUR),
      paidVersion: version,
      paidUsd: paid,
      overpaidUsd: new Prisma.Decimal(centsToString(paidCents - totalCents)),
    },
  });
  const referrerId = order.user.referredById;
  const rewardCents = (totalCents * toCents(config.referralRewardPercent) + 5_000n) / 10_000n;
  if (referrerId && rewardCents > 0n) {
    await postEntries(tx, [
      { userId: referrerId, account: 'ACTIVE', amount: centsToString(rewardCents), kind: 'REFERRAL_REWARD', reference: `order:${order.id}`, idempotencyKey: `referral:${order.id}:v${version}` },
    ]);
  }
  return { kind: 'counted', orderId: order.id, orderStatus: 'PAID', paidNow: true };
}

/**
 * A transfer the worker cannot count yet: seen in the mempool, or mined without enough
 * confirmations. It is attributed by its tag to a payable order right away, which puts
 * the order in VERIFYING and keeps it from expiring; the first time it is seen in the
 * mempool is kept (a payment sent inside its quote keeps that quote's price). A
 * transaction still in the mempool has moved nothing yet: it is attributed only to the
 * order it was reported for (anyone could broadcast one carrying another buyer's tag
 * and never let it be mined, to hold that order and its stock).
 */
export async function noteWaitingTransfer(
  db: Db,
  paymentId: string,
  seen: { valueWei: bigint; from: string; pending: boolean; block?: { number: bigint; hash: string; confirmations: number } },
  now = new Date(),
): Promise<void> {
  await db.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment || payment.status !== 'PENDING') return;
    const data: Prisma.PaymentUncheckedUpdateInput = { fromAddress: seen.from.toLowerCase(), valueWei: new Prisma.Decimal(seen.valueWei.toString()) };
    if (seen.pending && !payment.seenPendingAt) data.seenPendingAt = now;
    if (seen.block) Object.assign(data, { blockNumber: seen.block.number, blockHash: seen.block.hash, confirmations: seen.block.confirmations });
    const tag = tagOf(seen.valueWei);
    const order = !payment.orderId && tag > 0 ? await lockOrder(tx, { tag }) : null;
    if (order && isPayable(order.status) && (!seen.pending || payment.reportedOrderId === order.id)) {
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
 * An admin sent a transfer's value back (recorded with the refund's hash). Its order,
 * if it was waiting on it (LATE), goes back to where its other transfers leave it.
 */
export async function refundTransfer(db: Db, paymentId: string, refundTxHash: string): Promise<'refunded' | 'missing' | 'not-refundable'> {
  return db.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment) return 'missing';
    if (payment.status !== 'UNRESOLVED' && payment.status !== 'LATE') return 'not-refundable';
    await tx.payment.update({ where: { id: paymentId }, data: { status: 'REFUNDED', reason: `Refunded by an admin in ${refundTxHash}`, orderId: null } });
    if (payment.orderId) await refreshOrderStatus(tx, payment.orderId);
    return 'refunded';
  });
}

/**
 * After one of its transfers changed (rejected, refunded, resolved elsewhere), an unpaid
 * order's status follows what is left: LATE while a late transfer waits for an admin,
 * VERIFYING while one is being verified, otherwise UNDERPAID or PENDING_PAYMENT (the
 * expiry job expires it when its window is over). Paid, expired and deleted orders keep
 * theirs. The caller holds the payment's lock; the order's is taken here.
 */
async function refreshOrderStatus(tx: Tx, orderId: string): Promise<void> {
  const order = await lockOrder(tx, { id: orderId });
  if (!order || (!isPayable(order.status) && order.status !== 'LATE')) return;
  const [late, pending] = await Promise.all([
    tx.payment.count({ where: { orderId, status: 'LATE' } }),
    tx.payment.count({ where: { orderId, status: 'PENDING' } }),
  ]);
  const status = late > 0 ? 'LATE' : pending > 0 ? 'VERIFYING' : order.paidUsd.gt(0) ? 'UNDERPAID' : 'PENDING_PAYMENT';
  if (status !== order.status) await tx.order.update({ where: { id: orderId }, data: { status } });
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
