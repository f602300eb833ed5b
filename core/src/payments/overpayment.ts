import { payoutWallet, type PayoutWalletConfig } from '../books/balances.ts';
import { centsToString, toCents } from '../contract/money.ts';
import { Prisma, type Asset, type Db } from '../infra/db.ts';
import { conflict, notFound } from '../infra/errors.ts';
import { postEntries, type Tx } from '../books/ledger.ts';
import type { AssetCode } from '../contract/json-parts.ts';
import { priceToAnswer } from '../rails/eth/amounts.ts';
import { unitsToUsdCents, usdCentsToUnits } from '../rails/value.ts';

/**
 * What a paid order received beyond its total, and the buyer's (or an admin's) one way
 * to settle it: a refund of the same ETH, or a credit to the buyer's active balance.
 *
 * An overpayment is a list of parts, one per counted transfer that brought ETH beyond
 * what was still due when it was counted (in chain order: the one that crossed the total
 * overpaid by its ETH beyond what was due at the price of the quote that valued it; any
 * later one overpaid by all of it). Each part belongs to its own transfer:
 * - a refund goes back per part, each to the address that paid that transfer alone
 *   (`payerAddress`), so a few cents sent later by a stranger with the same tag never
 *   redirect the buyer's refund; a part no single address paid needs a wallet an admin
 *   names;
 * - a credit is worth, per part, the lower of what the part was valued at when it
 *   arrived and what its ETH is worth at the price when it is credited: a price locked by
 *   a quote is never a free option on ETH sent beyond the total.
 * Settling takes everything left at once, and records on each transfer what of its own
 * excess was settled (`excessSettled`): a transfer counted later, even one mined
 * earlier, never takes the place of one already refunded or credited.
 */
/** One transfer's excess, in its own asset (`amount` in that asset's smallest units). */
export type ExcessPart = { paymentId: string; txHash: string; payer: string | null; asset: Asset; amount: bigint; cents: bigint };

export type Overpayment = {
  /** USD left, as valued when it arrived (its quotes' prices, the day's for a late transfer). */
  cents: bigint;
  /** The ETH parts' sum (the order's `overpaidSettledWei` and `overpaidCreditedWei` count ETH only; a token part is settled on its transfer). */
  wei: bigint;
  parts: ExcessPart[];
  /** The USD settled before (keys a credit: it grows with every settlement, whatever its asset, so a replay is a no-op). */
  settledCents: bigint;
};

type OverpaidOrder = { id: string; status: string; totalPrice: Prisma.Decimal; overpaidUsd: Prisma.Decimal; overpaidSettledUsd: Prisma.Decimal; overpaidSettledWei: Prisma.Decimal };
const ethSum = (parts: Pick<ExcessPart, 'asset' | 'amount'>[]) => parts.reduce((sum, p) => sum + (p.asset === 'ETH' ? p.amount : 0n), 0n);
type CountedPayment = {
  id: string;
  txHash: string;
  excessSettled: Prisma.Decimal;
  orderId: string | null;
  payerAddress: string | null;
  asset: Asset;
  amount: Prisma.Decimal | null;
  usdValue: Prisma.Decimal | null;
  quoteId: string | null;
};

const overpaidOrderFields = { id: true, status: true, totalPrice: true, overpaidUsd: true, overpaidSettledUsd: true, overpaidSettledWei: true } as const;

/** Each counted transfer's amount beyond what was due, in its own asset, in chain order. */
function excessParts(order: OverpaidOrder, payments: CountedPayment[], quotePrices: Map<string, Prisma.Decimal>): ExcessPart[] {
  let due = toCents(order.totalPrice.toFixed(2));
  const parts: ExcessPart[] = [];
  for (const p of payments) {
    const paidCents = toCents((p.usdValue ?? new Prisma.Decimal(0)).toFixed(2));
    const amount = BigInt(p.amount?.toFixed(0) ?? '0');
    const used = paidCents < due ? paidCents : due;
    due -= used;
    if (paidCents <= used) continue;
    const price = p.quoteId ? quotePrices.get(p.quoteId) : undefined;
    let excess: bigint;
    if (price) {
      const usedUnits = usdCentsToUnits(p.asset, used, priceToAnswer(price.toFixed(8)));
      excess = amount > usedUnits ? amount - usedUnits : 0n;
    } else excess = (amount * (paidCents - used)) / paidCents; // a late transfer, valued at the day's price: in proportion
    if (excess > 0n) parts.push({ paymentId: p.id, txHash: p.txHash, payer: p.payerAddress, asset: p.asset, amount: excess, cents: paidCents - used });
  }
  return parts;
}

function computeOverpayment(order: OverpaidOrder, payments: CountedPayment[], quotePrices: Map<string, Prisma.Decimal>): Overpayment | null {
  if (order.status !== 'PAID') return null;
  const settledOf = new Map(payments.map((p) => [p.id, BigInt(p.excessSettled.toFixed(0))]));
  // ETH settled before it was recorded per transfer: taken from the earliest ETH parts.
  let unassigned = BigInt(order.overpaidSettledWei.toFixed(0)) - payments.reduce((sum, p) => sum + (p.asset === 'ETH' ? (settledOf.get(p.id) ?? 0n) : 0n), 0n);
  const left: ExcessPart[] = [];
  for (const part of excessParts(order, payments, quotePrices)) {
    let wei = part.amount - (settledOf.get(part.paymentId) ?? 0n);
    if (wei < 0n) wei = 0n;
    if (unassigned > 0n && part.asset === 'ETH') {
      const taken = unassigned < wei ? unassigned : wei;
      unassigned -= taken;
      wei -= taken;
    }
    if (wei > 0n) left.push({ ...part, amount: wei, cents: (part.cents * wei) / part.amount });
  }
  if (left.length === 0) return null;
  return { cents: left.reduce((sum, p) => sum + p.cents, 0n), wei: ethSum(left), parts: left, settledCents: toCents(order.overpaidSettledUsd.toFixed(2)) };
}

/** The overpayments of several orders, read in three queries (admins' list of overpaid orders). */
export async function overpaymentsOf(db: Db | Tx, orderIds: string[]): Promise<Map<string, Overpayment>> {
  const [orders, payments] = await Promise.all([
    db.order.findMany({ where: { id: { in: orderIds } }, select: overpaidOrderFields }),
    db.payment.findMany({
      where: { orderId: { in: orderIds }, status: 'COUNTED' },
      orderBy: [{ blockNumber: 'asc' }, { createdAt: 'asc' }],
      select: { id: true, txHash: true, excessSettled: true, orderId: true, payerAddress: true, asset: true, amount: true, usdValue: true, quoteId: true },
    }),
  ]);
  const quotes = await db.paymentQuote.findMany({ where: { id: { in: payments.flatMap((p) => (p.quoteId ? [p.quoteId] : [])) } }, select: { id: true, unitUsd: true } });
  const prices = new Map(quotes.map((q) => [q.id, q.unitUsd]));
  const out = new Map<string, Overpayment>();
  for (const order of orders) {
    const over = computeOverpayment(order, payments.filter((p) => p.orderId === order.id), prices);
    if (over) out.set(order.id, over);
  }
  return out;
}

export async function overpaymentOf(db: Db | Tx, orderId: string): Promise<Overpayment | null> {
  return (await overpaymentsOf(db, [orderId])).get(orderId) ?? null;
}

/** What crediting the overpayment to a balance gives at `answerOf` (today's price of each part's asset, 8 decimals): per part, the lower value. */
export function creditCents(over: Pick<Overpayment, 'parts'>, answerOf: (asset: AssetCode) => bigint): bigint {
  return over.parts.reduce((sum, p) => {
    const now = unitsToUsdCents(p.asset, p.amount, answerOf(p.asset));
    return sum + (now < p.cents ? now : p.cents);
  }, 0n);
}

/** The single address every part can go back to, or null (none, or several). */
export function soleSender(over: Pick<Overpayment, 'parts'>): string | null {
  const payers = new Set(over.parts.map((p) => p.payer));
  const [only] = payers;
  return payers.size === 1 && only ? only : null;
}

/** The order's payments (in id order), then the order: the order every path that locks both takes them in. */
async function lockPaidOrder(tx: Tx, orderId: string) {
  await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "orderId" = ${orderId}::uuid ORDER BY "id" FOR UPDATE`;
  const rows = await tx.$queryRaw<{ id: string; userId: string }[]>`
    SELECT "id", "userId" FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
  const order = rows[0];
  if (!order) throw notFound('Order not found');
  return order;
}

/** Marks everything left of the overpayment settled, on each transfer and on the order (and, for a credit, credited). */
async function settle(tx: Tx, orderId: string, over: Overpayment, credited: boolean): Promise<void> {
  for (const part of over.parts) {
    await tx.payment.update({ where: { id: part.paymentId }, data: { excessSettled: { increment: new Prisma.Decimal(part.amount.toString()) } } });
  }
  const usd = new Prisma.Decimal(centsToString(over.cents));
  const wei = new Prisma.Decimal(ethSum(over.parts).toString());
  await tx.order.update({
    where: { id: orderId },
    data: {
      overpaidSettledUsd: { increment: usd },
      overpaidSettledWei: { increment: wei },
      ...(credited ? { overpaidCreditedUsd: { increment: usd }, overpaidCreditedWei: { increment: wei } } : {}),
    },
  });
}

/**
 * A refund of what is left of an order's overpayment (an admin, or the buyer choosing
 * it): one refund per transfer that overpaid, each to the address that paid that
 * transfer, or all to the wallet an admin names. A part no single address paid is left
 * (an admin refunds it to a wallet they name, or the buyer adds it to their balance):
 * a stranger's transfer of that kind never holds back the buyer's own refund. Returns
 * the refunds' ids and how many parts were left.
 */
export async function refundOverpayment(
  db: Db,
  config: PayoutWalletConfig,
  input: { orderId: string; actorId: string; buyerId?: string; wallet?: string },
  /** Runs in the creating transaction with the new refunds (an admin's: their approvals). */
  afterCreate?: (tx: Prisma.TransactionClient, refundIds: string[]) => Promise<unknown>,
): Promise<{ refundIds: string[]; left: number }> {
  const named = input.wallet ? await payoutWallet(db, config, input.wallet) : undefined;
  return db.$transaction(async (tx) => {
    const order = await lockPaidOrder(tx, input.orderId);
    if (input.buyerId && order.userId !== input.buyerId) throw notFound('Order not found');
    const all = await overpaymentOf(tx, order.id);
    if (!all) throw conflict('This order has no overpayment left to refund');
    const parts = named ? all.parts : all.parts.filter((p) => p.payer);
    if (parts.length === 0) {
      throw conflict(
        input.buyerId
          ? 'This overpayment was not sent by a single address (several calls, or ETH passed through a contract): add it to your balance, or ask the shop to refund it to a wallet you name'
          : 'This overpayment was not sent by a single address: name the wallet to refund',
      );
    }
    const over = { ...all, parts, cents: parts.reduce((sum, p) => sum + p.cents, 0n), wei: ethSum(parts) };
    const refundIds: string[] = [];
    for (const part of over.parts) {
      const refund = await tx.refund.create({
        data: {
          source: 'OVERPAYMENT',
          orderId: order.id,
          paymentId: part.paymentId,
          userId: order.userId,
          wallet: named ?? (part.payer as string),
          walletSource: named ? 'admin' : 'sender',
          asset: part.asset,
          amount: new Prisma.Decimal(part.amount.toString()),
          amountUsd: new Prisma.Decimal(centsToString(part.cents)),
          requestedById: input.actorId,
        },
      });
      refundIds.push(refund.id);
    }
    await settle(tx, order.id, over, false);
    await afterCreate?.(tx, refundIds);
    return { refundIds, left: all.parts.length - parts.length };
  });
}

/**
 * The buyer turns what is left of an order's overpayment into active balance: per part,
 * the lower of its value when it arrived and its asset's value at `currentAnswer` (read
 * before the transaction, for the assets its parts are in: network calls).
 */
export async function creditOverpayment(db: Db, input: { orderId: string; userId: string; currentAnswer: (asset: AssetCode) => Promise<bigint> }): Promise<{ credited: string }> {
  const seen = await overpaymentOf(db, input.orderId);
  const answers = new Map<AssetCode, bigint>();
  for (const asset of new Set(seen?.parts.map((p) => p.asset) ?? [])) answers.set(asset, await input.currentAnswer(asset));
  return db.$transaction(async (tx) => {
    const order = await lockPaidOrder(tx, input.orderId);
    if (order.userId !== input.userId) throw notFound('Order not found');
    const over = await overpaymentOf(tx, order.id);
    if (!over) throw conflict('This order has no overpayment left to add to your balance');
    // A part in an asset not priced above arrived meanwhile: the buyer asks again.
    if (over.parts.some((p) => !answers.has(p.asset))) throw conflict('This overpayment changed while it was being credited; please try again');
    const amount = centsToString(creditCents(over, (asset) => answers.get(asset) as bigint));
    const posted = await postEntries(tx, [
      {
        userId: order.userId,
        account: 'ACTIVE',
        amount,
        kind: 'OVERPAYMENT_CREDIT',
        reference: `order:${order.id}`,
        // One credit per settled state: the order's lock serializes them, the key makes a replay a no-op.
        idempotencyKey: `overpayment-credit:${order.id}:usd${over.settledCents}`,
      },
    ]);
    // Never settled without its credit.
    if (!posted) throw new Error(`overpayment credit of order ${order.id} at ${over.settledCents} cents settled was posted already`);
    await settle(tx, order.id, over, true);
    return { credited: amount };
  });
}
