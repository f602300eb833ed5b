import type { AppConfig } from '../config.ts';
import { centsToString, toCents } from '../contract/money.ts';
import { Prisma, type Db } from '../db.ts';
import { postEntries, type Tx } from '../ledger.ts';
import { emitEvent, emitPaymentUnresolved, orderEventData } from '../webhooks.ts';
import { priceToAnswer, tagOf, weiToUsdCents } from './amounts.ts';
import { dueCents, isPayable } from './order-states.ts';
import { DUST, MINED_BEFORE_ORDER, NO_MATCHING_ORDER, ORDER_CANCELLED, ORDER_DELETED, SEVERAL_CALLS } from './reasons.ts';
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

/** Locks several orders at once, in id order (the order every path that locks two takes them in). */
async function lockOrderIds(tx: Tx, ids: (string | null | undefined)[]): Promise<void> {
  const sorted = [...new Set(ids.filter((id): id is string => Boolean(id)))].sort();
  if (sorted.length > 1) await tx.$queryRaw`SELECT "id" FROM "Order" WHERE "id" = ANY(${sorted}::uuid[]) ORDER BY "id" FOR UPDATE`;
}

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
  payerAddress: t.payer?.toLowerCase() ?? null,
  viaContract: t.internal,
  valueWei: new Prisma.Decimal(t.valueWei.toString()),
  blockNumber: t.blockNumber,
  blockHash: t.blockHash,
  blockTimestamp: t.blockTimestamp,
  confirmations: t.confirmations,
});

/** Serializes what is done with a block's unexplained inflow (the indexer recording it, settlement explaining it). */
async function lockInflow(tx: Tx, blockHash: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`inflow:${blockHash}`}))`;
}

/**
 * A transfer through a contract found by tracing in a block whose unexplained inflow
 * (recorded while the node could not trace) was already refunded: the refund gives back
 * this very ETH, so the transfer is not counted too. It takes its value out of what the
 * refund covers (`explainsInflowOf`), as long as the refund covers it. The caller holds
 * the block's inflow lock.
 */
async function refundedAsInflow(tx: Tx, t: MinedTransfer): Promise<{ refundId: string } | null> {
  if (!t.internal) return null;
  const inflow = await tx.payment.findFirst({ where: { source: 'INFLOW', status: 'REFUNDED', blockHash: t.blockHash } });
  if (!inflow) return null;
  // What the inflow's refund covers already: transfers taken into it here (REFUNDED with no
  // refund of their own). One that explained part of the inflow before it was refunded
  // (explainInflow took its value out) and was then refunded on its own is not in it.
  const marked = await tx.payment.findMany({ where: { explainsInflowOf: t.blockHash, status: 'REFUNDED', source: { not: 'INFLOW' } }, select: { id: true, valueWei: true } });
  const ownRefunds = new Set(
    (await tx.refund.findMany({ where: { source: 'TRANSFER', paymentId: { in: marked.map((p) => p.id) } }, select: { paymentId: true } })).map((r) => r.paymentId),
  );
  const taken = marked.filter((p) => !ownRefunds.has(p.id)).reduce((sum, p) => sum + BigInt(p.valueWei?.toFixed(0) ?? '0'), 0n);
  const left = BigInt(inflow.valueWei?.toFixed(0) ?? '0') - taken;
  if (left < t.valueWei) return null;
  const refund = await tx.refund.findFirst({ where: { paymentId: inflow.id, source: 'TRANSFER' }, select: { id: true } });
  return refund ? { refundId: refund.id } : null;
}

/**
 * The inflow of a block and transfers through contracts in it found by tracing are the
 * same ETH when the inflow was recorded while the node could not trace: the traced
 * transfers' value is taken out of the inflow (deleted when nothing is left), once per
 * transfer and block (`explainsInflowOf`). Serialized per block by an advisory lock that
 * the indexer takes too when it records inflows. An inflow already refunded is left for
 * the reconciler to report (the same ETH refunded and counted).
 */
export async function explainInflow(tx: Tx, blockHash: string): Promise<void> {
  await lockInflow(tx, blockHash);
  const inflow = await tx.payment.findFirst({ where: { source: 'INFLOW', status: 'UNRESOLVED', blockHash } });
  const traced = await tx.payment.findMany({
    where: {
      blockHash,
      viaContract: true,
      source: { not: 'INFLOW' },
      status: { in: ['COUNTED', 'UNRESOLVED', 'LATE'] },
      OR: [{ explainsInflowOf: null }, { explainsInflowOf: { not: blockHash } }],
    },
    select: { id: true, valueWei: true },
  });
  if (!inflow || traced.length === 0) return;
  const explained = traced.reduce((sum, p) => sum + BigInt(p.valueWei?.toFixed(0) ?? '0'), 0n);
  const left = BigInt(inflow.valueWei?.toFixed(0) ?? '0') - explained;
  await tx.payment.updateMany({ where: { id: { in: traced.map((p) => p.id) } }, data: { explainsInflowOf: blockHash } });
  if (left > 0n) await tx.payment.update({ where: { id: inflow.id }, data: { valueWei: new Prisma.Decimal(left.toString()) } });
  else await tx.payment.delete({ where: { id: inflow.id } });
}

/**
 * Counts a confirmed transfer to the shop toward its order: the order whose tag its
 * value carries (the worker), or the one an admin names (`assignTo`, only for
 * UNRESOLVED and LATE transfers, with the same rules). The caller has checked that it
 * moved value to the shop and has its confirmations (transfer.ts).
 */
export async function settleTransfer(
  db: Db,
  config: AppConfig,
  /** `claim`: the assignment is a buyer's claim, which pays only an order its buyer could still pay (or a paid one: an overpayment). */
  input: { paymentId: string; transfer: MinedTransfer; currentAnswer: () => Promise<bigint>; assignTo?: string; claim?: boolean; now?: Date },
): Promise<CountOutcome> {
  const now = input.now ?? new Date();
  const { transfer: t, assignTo } = input;
  // A late transfer is valued at today's price: read before the transaction (a network call).
  let current: bigint | undefined;
  const currentAnswer = async () => (current ??= await input.currentAnswer());
  for (let pass = 0; pass < 2; pass++) {
    const needPrice = pass === 1;
    const result = await db.$transaction(async (tx): Promise<CountOutcome | 'need-price'> => {
      // Its block's inflow first (as the indexer takes it), then the payments explaining it
      // may touch with this one, in id order: see refundedAsInflow and explainInflow.
      if (t.internal) {
        await lockInflow(tx, t.blockHash);
        await tx.$queryRaw`
          SELECT "id" FROM "Payment"
          WHERE "id" = ${input.paymentId}::uuid
             OR ("blockHash" = ${t.blockHash} AND "status" IN ('PENDING', 'COUNTED', 'UNRESOLVED', 'LATE') AND ("viaContract" OR "source" = 'INFLOW'))
          ORDER BY "id" FOR UPDATE`;
      }
      const outcome = await decide(tx, needPrice);
      // Found by tracing: if its block's inflow was recorded while it could not be traced,
      // it explains part of it, in the same transaction (never both counted and refundable).
      if (t.internal && outcome !== 'need-price' && outcome.kind !== 'refused' && outcome.kind !== 'already') await explainInflow(tx, t.blockHash);
      return outcome;
    });
    if (result !== 'need-price') return result;
    await currentAnswer();
  }
  throw new Error('unreachable: the price was read');

  /** What happens to the transfer, under its payment's lock (and its orders'). */
  async function decide(tx: Tx, needPrice: boolean): Promise<CountOutcome | 'need-price'> {
    const payment = await lockPayment(tx, input.paymentId);
    if (!payment) return { kind: 'unresolved', reason: 'Payment record missing' };
    if (payment.status === 'COUNTED') return { kind: 'already', orderId: payment.orderId };
    if (payment.status === 'REFUNDED') return { kind: 'refused', reason: 'This transfer was refunded' };
    const inflowRefund = payment.status === 'PENDING' ? await refundedAsInflow(tx, t) : null;
    if (inflowRefund) {
      const reason = `Its ETH was recorded as block ${t.blockNumber}'s unexplained inflow before the node could trace it, and that is being refunded (refund ${inflowRefund.refundId})`;
      await tx.payment.update({ where: { id: payment.id }, data: { ...blockFields(t), orderId: null, status: 'REFUNDED', reason, explainsInflowOf: t.blockHash } });
      if (payment.orderId) await refreshOrderStatus(tx, payment.orderId);
      return { kind: 'refused', reason };
    }
    if (assignTo && payment.status !== 'UNRESOLVED' && payment.status !== 'LATE') {
      return { kind: 'refused', reason: 'Only unresolved or late transfers can be assigned' };
    }
    if (assignTo && payment.blockHash && payment.blockHash !== t.blockHash) {
      return { kind: 'refused', reason: 'This transfer moved to another block since it was read; try again' };
    }
    const tag = tagOf(t.valueWei);
    // Several calls' values summed carry the sum of their tags: never taken as one order's.
    const byTag = !assignTo && t.calls === 1 && tag > 0;
    // The order it goes to and the one it waited with (if another) are locked together, in
    // id order: two assignments crossing between the same two orders never deadlock.
    const targetId = assignTo ?? (byTag ? (await tx.order.findFirst({ where: { paymentTag: tag }, select: { id: true } }))?.id : undefined);
    await lockOrderIds(tx, [targetId, payment.orderId]);
    const order = assignTo ? await lockOrder(tx, { id: assignTo }) : byTag ? await lockOrder(tx, { tag }) : null;
    const unresolved = async (reason: string): Promise<CountOutcome> => {
      if (assignTo) return { kind: 'refused', reason };
      await tx.payment.update({ where: { id: payment.id }, data: { ...blockFields(t), orderId: null, status: 'UNRESOLVED', reason } });
      if (payment.status !== 'UNRESOLVED') await emitPaymentUnresolved(tx, { ...payment, ...blockFields(t) }, reason);
      // An order it was attached to while it waited (its tag, seen early) no longer waits on it.
      if (payment.orderId) await refreshOrderStatus(tx, payment.orderId);
      return { kind: 'unresolved', reason };
    };
    if (!assignTo && t.calls > 1) return unresolved(SEVERAL_CALLS);
    if (!order) return assignTo ? { kind: 'refused', reason: 'Order not found' } : unresolved(NO_MATCHING_ORDER);
    if (order.status === 'DELETED') return unresolved(assignTo ? 'This order was deleted' : ORDER_DELETED);
    // A buyer's claim is no way to revive an order at the price it was placed at.
    const windowOver = order.paymentDeadline !== null && order.paymentDeadline <= now;
    if (input.claim && order.status !== 'PAID' && order.status !== 'CANCELLED' && (!isPayable(order.status) || windowOver)) {
      return { kind: 'refused', reason: 'This order can no longer be paid (its payment window is over): the shop will assign or refund your transfer' };
    }
    if (order.status === 'CANCELLED') {
      // Its buyer's wallet may have sent it before the cancel: kept on the order, refundable.
      if (assignTo) return { kind: 'refused', reason: 'This order was cancelled' };
      await tx.payment.update({ where: { id: payment.id }, data: { ...blockFields(t), orderId: order.id, status: 'LATE', reason: ORDER_CANCELLED } });
      return { kind: 'late', orderId: order.id, reason: ORDER_CANCELLED };
    }
    if (order.placedAtBlock !== null && t.blockNumber <= order.placedAtBlock) {
      return unresolved(assignTo ? 'This transfer was mined before the order was placed' : MINED_BEFORE_ORDER);
    }

    const quote = quoteFor(order, t, payment.seenPendingAt, config.mempoolGraceMinutes * 60_000);
    const late = !quote && !assignTo;
    if (!quote && !needPrice && current === undefined) return 'need-price';
    const answer = quote ? priceToAnswer(quote.ethUsd.toFixed(8)) : (current as bigint);
    const usdCents = weiToUsdCents(t.valueWei, answer);
    // Dust (anyone can send a few wei carrying a buyer's tag): it pays nothing, and moves no order.
    if (usdCents === 0n && !assignTo) return unresolved(DUST);
    const fields = { ...blockFields(t), orderId: order.id, usdValue: new Prisma.Decimal(centsToString(usdCents)), quoteId: quote?.id ?? null };
    const due = dueCents(order);
    const needsStock = !order.stockReserved && order.status !== 'PAID';

    const wait = async (reason: string): Promise<CountOutcome> => {
      await tx.payment.update({ where: { id: payment.id }, data: { ...fields, status: 'LATE', reason } });
      if (order.status !== 'PAID' && order.status !== 'LATE') {
        const updated = await tx.order.update({ where: { id: order.id }, data: { status: 'LATE' } });
        await emitEvent(tx, 'order.late', `order:${order.id}`, { ...orderEventData(updated), payment: { txHash: payment.txHash, valueWei: t.valueWei.toString(), reason } });
      }
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
  }
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
    const updated = await tx.order.update({ where: { id: order.id }, data: { paidUsd: paid, status: 'UNDERPAID' } });
    await emitEvent(tx, 'order.underpaid', `order:${order.id}`, { ...orderEventData(updated), dueUsd: centsToString(totalCents - paidCents) });
    return { kind: 'counted', orderId: order.id, orderStatus: 'UNDERPAID', paidNow: false };
  }
  const items = await tx.orderItem.findMany({ where: { orderId: order.id }, select: { durationDays: true } });
  const durationDays = Math.max(...items.map((i) => i.durationDays), 1);
  const version = order.paidVersion + 1;
  const updated = await tx.order.update({
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
  // Each item's daily credit runs from now for its own term: daily credit reads an item
  // only until then (OrderItem.creditEndsAt), never every order ever paid.
  await tx.$executeRaw`
    UPDATE "OrderItem" SET "creditEndsAt" = ${now}::timestamptz + make_interval(hours => 24 * "durationDays")
    WHERE "orderId" = ${order.id}::uuid`;
  await emitEvent(tx, 'order.paid', `order:${order.id}`, { ...orderEventData(updated), paidVersion: version });
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
    const data: Prisma.PaymentUncheckedUpdateInput = { fromAddress: seen.from.toLowerCase(), valueWei: new Prisma.Decimal(seen.valueWei.toString()) };
    if (seen.pending && !payment.seenPendingAt) data.seenPendingAt = now;
    if (seen.block) Object.assign(data, { blockNumber: seen.block.number, blockHash: seen.block.hash, confirmations: seen.block.confirmations });
    const tag = tagOf(seen.valueWei);
    const order = !payment.orderId && tag > 0 && (seen.calls ?? 1) === 1 ? await lockOrder(tx, { tag }) : null;
    const reportedFor = async (orderId: string) => (await tx.paymentReport.count({ where: { paymentId, orderId } })) > 0;
    // Dust carrying the tag holds no order open (nor keeps it from being cancelled).
    const latest = order?.quotes.at(-1);
    const dust = latest ? weiToUsdCents(seen.valueWei, priceToAnswer(latest.ethUsd.toFixed(8))) === 0n : false;
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
        amountWei: payment.valueWei ?? new Prisma.Decimal(0),
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
