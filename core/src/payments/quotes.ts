import type { AppConfig } from '../infra/config.ts';
import { toCents } from '../contract/money.ts';
import { Prisma, type Db } from '../infra/db.ts';
import type { Tx } from '../books/ledger.ts';
import { quoteAmountWei } from '../rails/eth/amounts.ts';
import type { EthUsd } from '../rails/eth/price.ts';
import { dueCents, isPayable } from './order-states.ts';

export type Quote = Prisma.PaymentQuoteGetPayload<object>;

/**
 * A quote for `cents` at `price`. It never outlives the order's payment window: a buyer
 * is never shown a price the shop would not honour.
 */
export async function createQuote(
  tx: Tx | Db,
  config: AppConfig,
  order: { id: string; paymentTag: number; cents: bigint; paymentDeadline: Date | null },
  price: EthUsd,
  now = new Date(),
): Promise<Quote> {
  return tx.paymentQuote.create({ data: quoteFields(config, order, price, now) });
}

/** A quote's columns (the one place they are computed; placeOrders writes many at once). */
export function quoteFields(config: AppConfig, order: { id: string; paymentTag: number; cents: bigint; paymentDeadline: Date | null }, price: EthUsd, now: Date) {
  const ttlEnd = now.getTime() + config.quoteTtlSeconds * 1000;
  const expiresAt = new Date(order.paymentDeadline ? Math.min(ttlEnd, order.paymentDeadline.getTime()) : ttlEnd);
  return {
    orderId: order.id,
    ethUsd: new Prisma.Decimal(price.price),
    usdAmount: new Prisma.Decimal(order.cents.toString()).dividedBy(100),
    asset: 'ETH' as const,
    amount: new Prisma.Decimal(quoteAmountWei(order.cents, price.answer, order.paymentTag).toString()),
    receivingAddress: config.receivingAddress,
    chainId: config.chainId,
    createdAt: now,
    expiresAt,
  };
}

/**
 * The order's open quote, issuing a new one (for what is still due, at today's price)
 * when the last one expired and the payment window is still open. Issuing is
 * serialized per order by a row lock, and what is due is read again under it (a
 * transfer counted meanwhile changes it), so two concurrent page loads make one quote
 * and a quote never asks for what was already paid.
 */
export async function openQuote(db: Db, config: AppConfig, orderId: string, getPrice: () => Promise<EthUsd>, now = new Date()): Promise<Quote | null> {
  const current = (order: Prisma.OrderGetPayload<object> | null, latest: Quote | null) => {
    if (!order || order.paymentTag === null || !isPayable(order.status)) return { quote: null, cents: 0n, closed: true };
    const cents = dueCents(order);
    if (cents === 0n) return { quote: null, cents, closed: true };
    if (latest && latest.expiresAt > now && toCents(latest.usdAmount.toFixed(2)) === cents) return { quote: latest, cents, closed: true };
    return { quote: null, cents, closed: order.paymentDeadline !== null && order.paymentDeadline <= now };
  };
  const latestOf = (client: Db | Tx) => client.paymentQuote.findFirst({ where: { orderId }, orderBy: { createdAt: 'desc' } });
  const first = current(await db.order.findUnique({ where: { id: orderId } }), await latestOf(db));
  if (first.closed) return first.quote;
  const price = await getPrice();
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
    const order = await tx.order.findUnique({ where: { id: orderId } });
    const again = current(order, await latestOf(tx));
    if (again.closed || !order) return again.quote;
    return createQuote(tx, config, { id: orderId, paymentTag: order.paymentTag as number, cents: again.cents, paymentDeadline: order.paymentDeadline }, price, now);
  });
}

