import { Prisma, type Db } from '../db.ts';
import type { AppConfig } from '../config.ts';
import { centsToString, toCents } from '../contract/money.ts';
import { postEntries, type Tx } from '../ledger.ts';
import { answerToPrice, priceToAnswer, weiToUsdCents } from './amounts.ts';
import { dueCents } from './quotes.ts';

/**
 * Counting a verified transfer toward its order, and undoing that after a reorg. Each
 * runs in one transaction with the payment and order rows locked, so concurrent jobs
 * (two workers, a retry, the indexer and a report) serialize and the order is paid
 * exactly once, with the referral reward posted once per paid state.
 */
export type Transfer = {
  valueWei: bigint;
  from: string;
  blockNumber: bigint;
  blockHash: string;
  blockTimestamp: Date;
  confirmations: number;
};

export type CountOutcome =
  | { kind: 'counted'; orderStatus: string; paidNow: boolean }
  | { kind: 'late'; reason: string }
  | { kind: 'already' }
  | { kind: 'rejected'; reason: string };

const HOUR = 3600_000;

async function lockPayment(tx: Tx, paymentId: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Payment" WHERE "id" = ${paymentId}::uuid FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
}

async function lockOrder(tx: Tx, orderId: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true, user: { select: { referredById: true } } } });
}

/** Re-reserves stock for an order whose reservation was released (late payment). */
async function reserveStock(tx: Tx, items: { productId: string; qty: number }[]): Promise<boolean> {
  for (const item of items) {
    const n = await tx.$executeRaw`
      UPDATE "Product" SET "countInStock" = "countInStock" - ${item.qty}
      WHERE "id" = ${item.productId}::uuid AND "countInStock" >= ${item.qty}`;
    if (n !== 1) return false;
  }
  return true;
}

export async function countTransfer(
  db: Db,
  config: AppConfig,
  input: { paymentId: string; orderId: string; transfer: Transfer; currentAnswer?: () => Promise<bigint>; now?: Date; byAdmin?: boolean },
): Promise<CountOutcome> {
  const now = input.now ?? new Date();
  const { transfer } = input;
  // The current price is read before the transaction (a network call); only late
  // transfers need it.
  const quotes = await db.paymentQuote.findMany({ where: { orderId: input.orderId }, orderBy: { createdAt: 'asc' } });
  const ts = transfer.blockTimestamp.getTime();
  const valid = quotes.filter((q) => q.createdAt.getTime() - 60_000 <= ts && ts <= q.expiresAt.getTime());
  const quote = valid.find((q) => q.amountWei.toFixed(0) === transfer.valueWei.toString()) ?? valid[valid.length - 1];
  const lastExpiry = quotes.length ? Math.max(...quotes.map((q) => q.expiresAt.getTime())) : 0;
  let answer: bigint;
  let late = false;
  if (quote) {
    answer = priceToAnswer(quote.ethUsd.toFixed(8));
  } else if (input.byAdmin || (ts > lastExpiry && ts <= lastExpiry + config.latePaymentHours * HOUR)) {
    if (!input.currentAnswer) throw new Error('a late transfer needs the current price');
    answer = await input.currentAnswer();
    late = !input.byAdmin;
  } else {
    return { kind: 'rejected', reason: 'Mined outside every quote of this order' };
  }
  const usdCents = weiToUsdCents(transfer.valueWei, answer);
  const usdValue = new Prisma.Decimal(centsToString(usdCents));

  return db.$transaction(async (tx) => {
    const payment = await lockPayment(tx, input.paymentId);
    if (!payment) return { kind: 'rejected', reason: 'Payment record missing' } as const;
    if (payment.status === 'COUNTED') return { kind: 'already' } as const;
    if (input.byAdmin && payment.status !== 'UNRESOLVED' && payment.status !== 'LATE') {
      return { kind: 'rejected', reason: 'Only unresolved or late transfers can be assigned' } as const;
    }
    const order = await lockOrder(tx, input.orderId);
    if (!order) return { kind: 'rejected', reason: 'Order not found' } as const;
    const paymentFields = {
      orderId: order.id,
      fromAddress: transfer.from.toLowerCase(),
      valueWei: new Prisma.Decimal(transfer.valueWei.toString()),
      usdValue,
      blockNumber: transfer.blockNumber,
      blockHash: transfer.blockHash,
      blockTimestamp: transfer.blockTimestamp,
      confirmations: transfer.confirmations,
      quoteId: quote?.id ?? null,
    };
    const due = dueCents(order);
    const reopening = order.status === 'EXPIRED' || order.status === 'LATE';
    if (input.byAdmin && !order.stockReserved && order.status !== 'PAID') {
      if (!(await reserveStock(tx, order.items))) return { kind: 'rejected', reason: 'The stock of this order is gone' } as const;
      await tx.order.update({ where: { id: order.id }, data: { stockReserved: true } });
    } else if (!input.byAdmin && (late || reopening)) {
      // Late: it pays the order only if it covers everything still due at today's price
      // (and the stock can be reserved again); otherwise an admin resolves it.
      const covers = usdCents >= due;
      const stockOk = covers && (order.stockReserved || (await reserveStock(tx, order.items)));
      if (!covers || !stockOk) {
        const reason = !covers
          ? `Paid after the quote expired and worth $${centsToString(usdCents)} at today's price, short of $${centsToString(due)}; an admin will resolve it`
          : 'Paid after the order expired and the stock is gone; an admin will resolve it';
        await tx.payment.update({ where: { id: payment.id }, data: { ...paymentFields, status: 'LATE', reason } });
        if (order.status !== 'PAID') await tx.order.update({ where: { id: order.id }, data: { status: 'LATE' } });
        return { kind: 'late', reason } as const;
      }
      if (!order.stockReserved) await tx.order.update({ where: { id: order.id }, data: { stockReserved: true } });
    }

    await tx.payment.update({ where: { id: payment.id }, data: { ...paymentFields, status: 'COUNTED', reason: late ? 'Paid after the quote expired; valued at the price when verified' : null } });
    const paidCents = toCents(order.paidUsd.toFixed(2)) + usdCents;
    const totalCents = toCents(order.totalPrice.toFixed(2));
    if (order.status === 'PAID') {
      // Another transfer to an order already paid: recorded as overpayment.
      await tx.order.update({
        where: { id: order.id },
        data: { paidUsd: new Prisma.Decimal(centsToString(paidCents)), overpaidUsd: new Prisma.Decimal(centsToString(paidCents - totalCents)) },
      });
      return { kind: 'counted', orderStatus: 'PAID', paidNow: false } as const;
    }
    if (paidCents < totalCents) {
      await tx.order.update({ where: { id: order.id }, data: { paidUsd: new Prisma.Decimal(centsToString(paidCents)), status: 'UNDERPAID' } });
      return { kind: 'counted', orderStatus: 'UNDERPAID', paidNow: false } as const;
    }
    const durationDays = Math.max(...order.items.map((i) => i.durationDays), 1);
    const version = order.paidVersion + 1;
    await tx.order.update({
      where: { id: order.id },
      data: {
        status: 'PAID',
        paidAt: now,
        expiresAt: new Date(now.getTime() + durationDays * 24 * HOUR),
        paidVersion: version,
        paidUsd: new Prisma.Decimal(centsToString(paidCents)),
        overpaidUsd: new Prisma.Decimal(centsToString(paidCents - totalCents)),
      },
    });
    const referrerId = order.user.referredById;
    const rewardCents = (totalCents * toCents(config.referralRewardPercent) + 5_000n) / 10_000n;
    if (referrerId && rewardCents > 0n) {
      await postEntries(tx, [
        {
          userId: referrerId,
          account: 'ACTIVE',
          amount: centsToString(rewardCents),
          kind: 'REFERRAL_REWARD',
          reference: `order:${order.id}`,
          idempotencyKey: `referral:${order.id}:v${version}`,
        },
      ]);
    }
    return { kind: 'counted', orderStatus: 'PAID', paidNow: true } as const;
  });
}

/**
 * A counted transfer is no longer on the canonical chain (reorg): take it back out of
 * its order. A paid order falls back to VERIFYING and its referral reward is reversed
 * through the ledger (once per paid state).
 */
export async function uncountPayment(db: Db, paymentId: string, reason: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment || payment.status !== 'COUNTED' || !payment.orderId) return false;
    const order = await lockOrder(tx, payment.orderId);
    if (!order) return false;
    const paidCents = toCents(order.paidUsd.toFixed(2)) - toCents((payment.usdValue ?? new Prisma.Decimal(0)).toFixed(2));
    const totalCents = toCents(order.totalPrice.toFixed(2));
    await tx.payment.update({ where: { id: payment.id }, data: { status: 'PENDING', reason, confirmations: 0, blockHash: null, blockNumber: null } });
    const stillPaid = paidCents >= totalCents;
    const data: Prisma.OrderUpdateInput = {
      paidUsd: new Prisma.Decimal(centsToString(paidCents > 0n ? paidCents : 0n)),
      overpaidUsd: new Prisma.Decimal(centsToString(stillPaid ? paidCents - totalCents : 0n)),
    };
    if (order.status === 'PAID' && !stillPaid) {
      Object.assign(data, { status: 'VERIFYING', paidAt: null, expiresAt: null });
      const reward = await tx.ledgerEntry.findUnique({ where: { idempotencyKey: `referral:${order.id}:v${order.paidVersion}` } });
      if (reward) {
        await postEntries(tx, [
          {
            userId: reward.userId,
            account: 'ACTIVE',
            amount: reward.amount.negated(),
            kind: 'REFERRAL_REWARD',
            reference: `order:${order.id}:reorg`,
            idempotencyKey: `referral-reversal:${order.id}:v${order.paidVersion}`,
          },
        ]);
      }
    } else if (order.status !== 'PAID') {
      data.status = paidCents > 0n ? 'UNDERPAID' : 'VERIFYING';
    }
    await tx.order.update({ where: { id: order.id }, data });
    return true;
  });
}

export { answerToPrice };
