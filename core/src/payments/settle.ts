import type { AppConfig } from '../infra/config.ts';
import type { Effect } from '../infra/effects.ts';
import { centsToString, toCents } from '../contract/money.ts';
import { Prisma, type Db } from '../infra/db.ts';
import { postEntries, type Tx } from '../books/ledger.ts';
import { noteSecurityChange } from '../accounts/security-notices.ts';
import { emitEvent, emitPaymentUnresolved, orderEventData } from '../events/webhooks.ts';
import type { AssetCode } from '../contract/json-parts.ts';
import { priceToAnswer } from '../rails/eth/amounts.ts';
import { tagIn, unitsToUsdCents } from '../rails/value.ts';
import { explainInflow, refundedAsInflow } from './inflows.ts';
import { dueCents, isPayable } from './order-states.ts';
import { blockAssignments, blockFields, lockInflow, lockOrder, lockPayment, refreshOrderStatus, type LockedOrder } from './payment-locks.ts';
import { DUST, LONG_AFTER_WINDOW, MINED_BEFORE_ORDER, NO_MATCHING_ORDER, ORDER_CANCELLED, ORDER_DELETED, SEVERAL_CALLS, tokenToReceiving } from './reasons.ts';
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
  /** `effects`: the receipt when the order became PAID by it (effects.ts). */
  | { kind: 'counted'; orderId: string; orderStatus: string; effects: Effect[] }
  | { kind: 'late'; orderId: string; reason: string }
  | { kind: 'unresolved'; reason: string }
  | { kind: 'already'; orderId: string | null }
  /** An admin's assignment that the rules refuse (nothing changed). */
  | { kind: 'refused'; reason: string };

const HOUR = 3600_000;
/** A quote counts for a transfer mined up to a minute before it was issued (clocks differ). */
const QUOTE_SLACK_MS = 60_000;

/**
 * The price a transfer is valued at: the quote it paid (exactly its amount, mined while
 * that quote was open, or seen in the mempool while it was open and mined later), else
 * any quote open when it was mined; null when no quote covers it (a late transfer).
 */
function quoteFor(order: LockedOrder, asset: AssetCode, t: MinedTransfer, seenPendingAt: Date | null, graceMs: number) {
  const open = (q: LockedOrder['quotes'][number], at: number) => q.createdAt.getTime() - QUOTE_SLACK_MS <= at && at <= q.expiresAt.getTime();
  const mined = t.blockTimestamp.getTime();
  // Sent inside the quote (seen in the mempool while it was open) and mined within the
  // grace after it: the buyer paid the price the shop gave. Not later: a transaction
  // held back for days must not pick the better of two prices.
  const sentInside = (q: LockedOrder['quotes'][number]) =>
    seenPendingAt !== null && open(q, seenPendingAt.getTime()) && mined <= q.expiresAt.getTime() + graceMs;
  // Only a quote in the transfer's own asset prices it: a USDC amount is never valued at ETH's price.
  const quotes = order.quotes.filter((q) => q.asset === asset);
  const exact = quotes.find((q) => q.amount.toFixed(0) === t.valueWei.toString() && (open(q, mined) || sentInside(q)));
  return exact ?? quotes.filter((q) => open(q, mined)).at(-1) ?? null;
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
  /** `currentAnswer`: today's price of an asset as valuations take it (rails/prices.ts, AssetPrices.valuation). */
  input: { paymentId: string; transfer: MinedTransfer; currentAnswer: (asset: AssetCode) => Promise<bigint>; assignTo?: string; claim?: boolean; now?: Date },
): Promise<CountOutcome> {
  const now = input.now ?? new Date();
  const { transfer: t } = input;
  // A late transfer is valued at today's price of its asset: read before the transaction (a network call).
  let current: bigint | undefined;
  let asset: AssetCode | undefined;
  const currentAnswer = async () => (current ??= await input.currentAnswer(asset as AssetCode));
  for (let pass = 0; pass < 2; pass++) {
    const needPrice = pass === 1;
    const result = await db.$transaction(async (tx): Promise<CountOutcome | { priceOf: AssetCode }> => {
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
      const outcome = await decide(tx, { config, input, now, needPrice, current });
      // Found by tracing: if its block's inflow was recorded while it could not be traced,
      // it explains part of it, in the same transaction (never both counted and refundable).
      if (t.internal && !('priceOf' in outcome) && outcome.kind !== 'refused' && outcome.kind !== 'already') await explainInflow(tx, t.blockHash);
      return outcome;
    });
    if (!('priceOf' in result)) return result;
    asset = result.priceOf;
    await currentAnswer();
  }
  throw new Error('unreachable: the price was read');
}

/** What one pass of settlement decides with: `current` is today's price once read (a late transfer needs it). */
type Ctx = {
  config: AppConfig;
  input: { paymentId: string; transfer: MinedTransfer; assignTo?: string; claim?: boolean };
  now: Date;
  needPrice: boolean;
  current: bigint | undefined;
};

/** What happens to the transfer, under its payment's lock (and its orders'). */
async function decide(tx: Tx, ctx: Ctx): Promise<CountOutcome | { priceOf: AssetCode }> {
  const { input } = ctx;
  const { transfer: t, assignTo } = input;
  const payment = await lockPayment(tx, input.paymentId);
  if (!payment) return { kind: 'unresolved', reason: 'Payment record missing' };
  if (payment.status === 'COUNTED') return { kind: 'already', orderId: payment.orderId };
  if (payment.status === 'REFUNDED') return { kind: 'refused', reason: 'This transfer was refunded' };
  const inflowRefund = payment.status === 'PENDING' && payment.depositAddress === null ? await refundedAsInflow(tx, t) : null;
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
  // A token's amount carries no tag: 0.
  const tag = tagIn(payment.asset, t.valueWei);
  // Sent to an order's deposit address: that order's, whatever the amount (no tag needed).
  const byAddress = !assignTo && payment.depositAddress !== null;
  // Several calls' values summed carry the sum of their tags: never taken as one order's.
  const byTag = !assignTo && !byAddress && t.calls === 1 && tag > 0;
  // The order it goes to and the one it waited with (if another) are locked together, in
  // id order: two assignments crossing between the same two orders never deadlock.
  const target = assignTo ? { id: assignTo } : byAddress ? { depositAddress: payment.depositAddress as string } : byTag ? { tag } : null;
  const order = target ? await lockOrder(tx, target, payment.orderId) : null;
  const unresolved = async (reason: string): Promise<CountOutcome> => {
    if (assignTo) return { kind: 'refused', reason };
    await tx.payment.update({ where: { id: payment.id }, data: { ...blockFields(t), orderId: null, status: 'UNRESOLVED', reason } });
    if (payment.status !== 'UNRESOLVED') await emitPaymentUnresolved(tx, { ...payment, ...blockFields(t) }, reason);
    // An order it was attached to while it waited (its tag, seen early) no longer waits on it.
    if (payment.orderId) await refreshOrderStatus(tx, payment.orderId);
    return { kind: 'unresolved', reason };
  };
  return judge(tx, ctx, payment, order, unresolved);
}

/** With the transfer's payment and order locked: counted, late, unresolved or refused, and what it pays. */
async function judge(
  tx: Tx,
  ctx: Ctx,
  payment: NonNullable<Awaited<ReturnType<typeof lockPayment>>>,
  order: LockedOrder | null,
  unresolved: (reason: string) => Promise<CountOutcome>,
): Promise<CountOutcome | { priceOf: AssetCode }> {
  const { config, input, now, needPrice, current } = ctx;
  const { transfer: t, assignTo } = input;
  // A batch's calls carry no one order's tag; to a deposit address they are its order's all the same.
  if (!assignTo && payment.depositAddress === null && t.calls > 1) return unresolved(SEVERAL_CALLS);
  // A token sent to the receiving address names no order (a token pays by the order's deposit address).
  if (!assignTo && payment.depositAddress === null && payment.asset !== 'ETH') return unresolved(tokenToReceiving(payment.asset));
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

  const quote = quoteFor(order, payment.asset, t, payment.seenPendingAt, config.mempoolGraceMinutes * 60_000);
  const late = !quote && !assignTo;
  if (!quote && !needPrice && current === undefined) return { priceOf: payment.asset };
  const answer = quote ? priceToAnswer(quote.unitUsd.toFixed(8)) : (current as bigint);
  const usdCents = unitsToUsdCents(payment.asset, t.valueWei, answer);
  // Dust (anyone can send a few wei carrying a buyer's tag): it pays nothing, and moves no order.
  if (usdCents === 0n && !assignTo) return unresolved(DUST);
  const fields = { ...blockFields(t), orderId: order.id, usdValue: new Prisma.Decimal(centsToString(usdCents)), quoteId: quote?.id ?? null };
  const due = dueCents(order);
  const needsStock = !order.stockReserved && order.status !== 'PAID';

  const wait = async (reason: string): Promise<CountOutcome> => {
    await tx.payment.update({ where: { id: payment.id }, data: { ...fields, status: 'LATE', reason } });
    if (order.status !== 'PAID' && order.status !== 'LATE') {
      const updated = await tx.order.update({ where: { id: order.id }, data: { status: 'LATE' } });
      await emitEvent(tx, 'order.late', `order:${order.id}`, { ...orderEventData(updated), payment: { txHash: payment.txHash, valueWei: payment.asset === 'ETH' ? t.valueWei.toString() : null, asset: payment.asset, amount: t.valueWei.toString(), reason } });
    }
    return { kind: 'late', orderId: order.id, reason };
  };
  // A deposit address never stops matching its order (a tag is freed LATE_PAYMENT_HOURS
  // after the order's window): one that arrives later than that never pays an order that
  // is not paid by itself, at the price and stock of long ago. Kept, for an admin.
  if (!assignTo && payment.depositAddress !== null && order.status !== 'PAID' && order.paymentDeadline !== null) {
    if (t.blockTimestamp.getTime() > order.paymentDeadline.getTime() + config.latePaymentHours * HOUR) return wait(LONG_AFTER_WINDOW);
  }
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
  const counted = await count(tx, config, { paymentId: payment.id, order, transfer: t, usdCents, quoteId: quote?.id ?? null, late, now });
  // A late transfer an admin assigned to another order: the order it was waiting with moves on.
  if (payment.orderId && payment.orderId !== order.id) await refreshOrderStatus(tx, payment.orderId);
  return counted;
}

async function count(
  tx: Tx,
  config: AppConfig,
  input: { paymentId: string; order: LockedOrder; transfer: MinedTransfer; usdCents: bigint; quoteId: string | null; late: boolean; now: Date },
): Promise<CountOutcome> {
  const { order, now } = input;
  // The payment COUNTED in the statement that moves its order (a data-modifying WITH runs once).
  const counted = Prisma.sql`
    UPDATE "Payment" SET ${blockAssignments(input.transfer)}, "orderId" = ${order.id}::uuid,
      "usdValue" = ${new Prisma.Decimal(centsToString(input.usdCents))}::numeric, "quoteId" = ${input.quoteId}::uuid, "status" = 'COUNTED',
      "reason" = ${input.late ? 'Paid after the quote expired; valued at the price when verified' : null}::text, "updatedAt" = now()
    WHERE "id" = ${input.paymentId}::uuid`;
  const paidCents = toCents(order.paidUsd.toFixed(2)) + input.usdCents;
  const totalCents = toCents(order.totalPrice.toFixed(2));
  const paid = new Prisma.Decimal(centsToString(paidCents));
  const overpaid = new Prisma.Decimal(centsToString(paidCents - totalCents));
  if (order.status === 'PAID') {
    // Another transfer to an order already paid: recorded as overpayment.
    await tx.$executeRaw`
      WITH payment AS (${counted})
      UPDATE "Order" SET "paidUsd" = ${paid}::numeric, "overpaidUsd" = ${overpaid}::numeric, "updatedAt" = now() WHERE "id" = ${order.id}::uuid`;
    return { kind: 'counted', orderId: order.id, orderStatus: 'PAID', effects: [] };
  }
  if (paidCents < totalCents) {
    await tx.$executeRaw`
      WITH payment AS (${counted})
      UPDATE "Order" SET "paidUsd" = ${paid}::numeric, "status" = 'UNDERPAID', "updatedAt" = now() WHERE "id" = ${order.id}::uuid`;
    const updated = { ...order, status: 'UNDERPAID', paidUsd: paid };
    await emitEvent(tx, 'order.underpaid', `order:${order.id}`, { ...orderEventData(updated), dueUsd: centsToString(totalCents - paidCents) });
    return { kind: 'counted', orderId: order.id, orderStatus: 'UNDERPAID', effects: [] };
  }
  const version = order.paidVersion + 1;
  // PAID until its longest item's term ends (a day at least), and each item's daily credit
  // runs from now for its own term: daily credit reads an item only until then
  // (OrderItem.creditEndsAt), never every order ever paid.
  await tx.$executeRaw`
    WITH payment AS (${counted}),
    items AS (
      UPDATE "OrderItem" SET "creditEndsAt" = ${now}::timestamptz + make_interval(hours => 24 * "durationDays")
      WHERE "orderId" = ${order.id}::uuid
      RETURNING "durationDays")
    UPDATE "Order" SET "status" = 'PAID', "paidAt" = ${now}::timestamptz,
      "expiresAt" = ${now}::timestamptz + make_interval(hours => 24 * GREATEST((SELECT max("durationDays") FROM items), 1)),
      "paidVersion" = ${version}, "paidUsd" = ${paid}::numeric, "overpaidUsd" = ${overpaid}::numeric, "updatedAt" = now()
    WHERE "id" = ${order.id}::uuid`;
  const updated = { ...order, status: 'PAID', paidAt: now, paidUsd: paid, overpaidUsd: overpaid };
  await emitEvent(tx, 'order.paid', `order:${order.id}`, { ...orderEventData(updated), paidVersion: version });
  const referrerId = order.user.referredById;
  const rewardCents = (totalCents * toCents(config.referralRewardPercent) + 5_000n) / 10_000n;
  const effects: Effect[] = [{ kind: 'receipt', orderId: order.id }];
  if (referrerId && rewardCents > 0n) {
    await postEntries(tx, [
      { userId: referrerId, account: 'ACTIVE', amount: centsToString(rewardCents), kind: 'REFERRAL_REWARD', reference: `order:${order.id}`, idempotencyKey: `referral:${order.id}:v${version}` },
    ]);
    // The referrer hears of it: noted with the credit, sent once by the worker.
    effects.push(await noteSecurityChange(tx, { kind: 'REFERRAL_REWARD', userId: referrerId, amount: centsToString(rewardCents), orderId: order.id }));
  }
  return { kind: 'counted', orderId: order.id, orderStatus: 'PAID', effects };
}
