import type { AppConfig } from '../infra/config.ts';
import { toCents } from '../contract/money.ts';
import type { AssetCode } from '../contract/json-parts.ts';
import { Prisma, type Db } from '../infra/db.ts';
import type { Tx } from '../books/ledger.ts';
import { PRICE_UNAVAILABLE, PriceUnavailableError } from '../rails/eth/price.ts';
import { AssetNotOfferedError, type AssetPrice } from '../rails/prices.ts';
import { quoteAmount } from '../rails/value.ts';
import { dueCents, isPayable } from './order-states.ts';

export type Quote = Prisma.PaymentQuoteGetPayload<object>;

type QuotedOrder = { id: string; paymentTag: number; cents: bigint; paymentDeadline: Date | null };

/**
 * A quote's columns (the one place they are computed; placeOrders writes many at once):
 * what `asset` asks for the order's `cents` at `price`. It never outlives the order's
 * payment window: a buyer is never shown a price the shop would not honour.
 */
export function quoteFields(config: AppConfig, order: QuotedOrder, asset: AssetCode, price: AssetPrice, now: Date) {
  const ttlEnd = now.getTime() + config.quoteTtlSeconds * 1000;
  const expiresAt = new Date(order.paymentDeadline ? Math.min(ttlEnd, order.paymentDeadline.getTime()) : ttlEnd);
  return {
    orderId: order.id,
    unitUsd: new Prisma.Decimal(price.price),
    usdAmount: new Prisma.Decimal(order.cents.toString()).dividedBy(100),
    asset,
    amount: new Prisma.Decimal(quoteAmount(asset, order.cents, price.answer, order.paymentTag).toString()),
    receivingAddress: config.receivingAddress,
    chainId: config.chainId,
    createdAt: now,
    expiresAt,
  };
}

/** An accepted asset the order is not offered in now, and why (for the buyer). */
export type NotOffered = { asset: AssetCode; reason: string };
export type OpenQuotes = { quotes: Quote[]; notOffered: NotOffered[] };

/** Why a token is not offered to an order without a deposit address (a shop without a deposit factory). */
export const tokenNeedsDepositAddress = (asset: AssetCode) => `Paying in ${asset} needs this order's own deposit address, which the shop does not give yet; pay in ETH`;

/**
 * The order's open quote in each accepted asset (ACCEPTED_ASSETS, ETH first), issuing a
 * new one (for what is still due, at today's price) where the last one expired and the
 * payment window is still open. An asset not offered now (a token off its peg, a feed
 * that cannot be read, a token without the order's deposit address) is named with its
 * reason; a quote still open in it is kept (the shop honours what it showed). Issuing is
 * serialized per order by a row lock, and what is due is read again under it (a transfer
 * counted meanwhile changes it), so two concurrent page loads make one quote per asset
 * and a quote never asks for what was already paid. Prices are read before the lock.
 */
export async function openQuotes(db: Db, config: AppConfig, orderId: string, forQuote: (asset: AssetCode) => Promise<AssetPrice>, now = new Date()): Promise<OpenQuotes> {
  const assets = config.acceptedAssets;
  type OrderRow = Prisma.OrderGetPayload<object>;
  const judge = (order: OrderRow | null, latest: Quote[]) => {
    if (!order || order.paymentTag === null || !isPayable(order.status)) return null;
    const cents = dueCents(order);
    if (cents === 0n) return null;
    const open = new Map<AssetCode, Quote>();
    for (const q of latest) if (q.expiresAt > now && toCents(q.usdAmount.toFixed(2)) === cents && !open.has(q.asset)) open.set(q.asset, q);
    const windowOver = order.paymentDeadline !== null && order.paymentDeadline <= now;
    return { order, cents, open, missing: windowOver ? [] : assets.filter((a) => !open.has(a)) };
  };
  // The newest quote of each asset (an order has a handful: one per asset per QUOTE_TTL in its window).
  const latestOf = (client: Db | Tx) => client.paymentQuote.findMany({ where: { orderId }, orderBy: { createdAt: 'desc' }, distinct: ['asset'] });
  const first = judge(await db.order.findUnique({ where: { id: orderId } }), await latestOf(db));
  if (!first) return { quotes: [], notOffered: [] };
  const ordered = (open: Map<AssetCode, Quote>) => assets.flatMap((a) => (open.has(a) ? [open.get(a) as Quote] : []));
  if (first.missing.length === 0) return { quotes: ordered(first.open), notOffered: [] };

  const notOffered: NotOffered[] = [];
  const priced = new Map<AssetCode, AssetPrice>();
  for (const asset of first.missing) {
    if (asset !== 'ETH' && !first.order.depositAddress) {
      notOffered.push({ asset, reason: tokenNeedsDepositAddress(asset) });
      continue;
    }
    try {
      priced.set(asset, await forQuote(asset));
    } catch (err) {
      if (err instanceof AssetNotOfferedError) notOffered.push({ asset, reason: err.reason });
      else if (err instanceof PriceUnavailableError) notOffered.push({ asset, reason: PRICE_UNAVAILABLE });
      else throw err;
    }
  }
  if (priced.size === 0) return { quotes: ordered(first.open), notOffered };
  const quotes = await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
    const again = judge(await tx.order.findUnique({ where: { id: orderId } }), await latestOf(tx));
    if (!again) return [];
    for (const asset of again.missing) {
      const price = priced.get(asset);
      if (!price) continue;
      const fields = quoteFields(config, { id: orderId, paymentTag: again.order.paymentTag as number, cents: again.cents, paymentDeadline: again.order.paymentDeadline }, asset, price, now);
      again.open.set(asset, await tx.paymentQuote.create({ data: fields }));
    }
    return ordered(again.open);
  });
  return { quotes, notOffered: quotes.length === 0 ? [] : notOffered };
}
