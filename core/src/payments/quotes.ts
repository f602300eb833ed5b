import { Prisma, type Db } from '../db.ts';
import type { AppConfig } from '../config.ts';
import { toCents } from '../contract/money.ts';
import { quoteAmountWei } from './amounts.ts';
import type { EthUsd } from './eth-price.ts';

export type Quote = Prisma.PaymentQuoteGetPayload<object>;
type Tx = Prisma.TransactionClient;

/** Orders that can still be paid get quotes; others keep their last one for the record. */
export const PAYABLE_STATUSES = ['PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING'] as const;

/** USD still due on an order, in cents (never negative). */
export function dueCents(order: { totalPrice: Prisma.Decimal; paidUsd: Prisma.Decimal }): bigint {
  const due = toCents(order.totalPrice.toFixed(2)) - toCents(order.paidUsd.toFixed(2));
  return due > 0n ? due : 0n;
}

export async function createQuote(
  tx: Tx | Db,
  config: AppConfig,
  order: { id: string; paymentTag: number; cents: bigint },
  price: EthUsd,
  now = new Date(),
): Promise<Quote> {
  return tx.paymentQuote.create({
    data: {
      orderId: order.id,
      ethUsd: new Prisma.Decimal(price.price),
      usdAmount: new Prisma.Decimal(order.cents.toString()).dividedBy(100),
      amountWei: new Prisma.Decimal(quoteAmountWei(order.cents, price.answer, order.paymentTag).toString()),
      receivingAddress: config.receivingAddress,
      chainId: config.chainId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + config.quoteTtlSeconds * 1000),
    },
  });
}

/**
 * The order's open quote, issuing a new one (for what is still due, at today's price)
 * when the last one expired. Issuing is serialized per order by a row lock, so two
 * concurrent page loads do not create two quotes.
 */
export async function openQuote(
  db: Db,
  config: AppConfig,
  orderId: string,
  getPrice: () => Promise<EthUsd>,
  now = new Date(),
): Promise<Quote | null> {
  const latest = await db.paymentQuote.findFirst({ where: { orderId }, orderBy: { createdAt: 'desc' } });
  const order = await db.order.findUnique({ where: { id: orderId } });
  if (!order || order.paymentTag === null) return null;
  if (!(PAYABLE_STATUSES as readonly string[]).includes(order.status)) return null;
  const cents = dueCents(order);
  if (cents === 0n) return null;
  if (latest && latest.expiresAt > now && toCents(latest.usdAmount.toFixed(2)) === cents) return latest;
  if (order.paymentDeadline && order.paymentDeadline <= now) return null;
  const price = await getPrice();
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
    const again = await tx.paymentQuote.findFirst({ where: { orderId }, orderBy: { createdAt: 'desc' } });
    if (again && again.expiresAt > now && toCents(again.usdAmount.toFixed(2)) === cents && again.id !== latest?.id) return again;
    return createQuote(tx, config, { id: orderId, paymentTag: order.paymentTag as number, cents }, price, now);
  });
}
