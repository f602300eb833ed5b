import { deleteBlockedReason, latestAuthorization, openQuotes, signableToken, PRICE_UNAVAILABLE, Prisma, tokenNeedsDepositAddress, type Db, type OpenQuotes, type Quote, type Runtime } from '@shop/core';
import { assetDecimals, authorizationDomain, formatEth, tokenBySymbol, LISTED_ORDER_STATUSES, orderReferenceRange, orderView, usdNumber, type AdminOrderJson, type AssetQuoteJson, type OrderJson, type PaymentJson, type QuoteJson } from '@shop/core/contract';
import { notFound } from '@shop/core';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';
import { ordersWithReference } from './order-lookup.ts';
import { overpaymentJson, refundsJson } from '../payouts/service.ts';

/**
 * The orders the api shows: reads and their JSON. The rules (placement, reports,
 * quotes, expiry, deletion) live in core (payments/); an order's own fields are mapped
 * by core's one order mapper (contract/order-views.ts), which every view starts from.
 */
type Deps = Pick<Runtime, 'config' | 'db' | 'redis' | 'chain' | 'prices' | 'assetPrices' | 'depositFactory'>;

const orderInclude = {
  items: { orderBy: { id: 'asc' } },
  user: { select: { id: true, name: true } },
} satisfies Prisma.OrderInclude;
type OrderRow = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

function quoteJson(q: Quote, depositAddress: string | null): QuoteJson {
  const wei = BigInt(q.amount.toFixed(0));
  return {
    ethUsd: q.unitUsd.toFixed(8),
    amountWei: wei.toString(),
    // The tag sits below the 6th decimal, where every shown ETH amount is cut.
    amountEth: formatEth(wei),
    usdAmount: usdNumber(q.usdAmount),
    receivingAddress: q.receivingAddress,
    chainId: q.chainId,
    expiresAt: q.expiresAt.toISOString(),
    depositAddress,
  };
}

/**
 * A quote in any asset: a token is paid to the order's deposit address, ETH (by its tag)
 * to the receiving address; a token the relay sends signed payments in says its EIP-712
 * domain (`signedTransfer`).
 */
function assetQuoteJson(config: Deps['config'], q: Quote, depositAddress: string | null): AssetQuoteJson {
  const signable = config.relayAddress && q.asset !== 'ETH' && depositAddress ? signableToken(config, q.asset) : null;
  const domain = signable ? authorizationDomain(signable, config.chainId) : null;
  return {
    asset: q.asset,
    amount: q.amount.toFixed(0),
    decimals: assetDecimals(q.asset),
    tokenAddress: q.asset === 'ETH' ? null : tokenBySymbol(q.asset).address,
    payTo: q.asset === 'ETH' ? q.receivingAddress : (depositAddress as string),
    depositAddress,
    receivingAddress: q.receivingAddress,
    chainId: q.chainId,
    usdAmount: usdNumber(q.usdAmount),
    expiresAt: q.expiresAt.toISOString(),
    ...(domain ? { signedTransfer: { domain } } : {}),
  };
}

/** An order as the buyer's lists show it. */
export async function orderJsonById(db: Db, orderId: string): Promise<OrderJson> {
  return orderView(await db.order.findUniqueOrThrow({ where: { id: orderId }, include: orderInclude }));
}

async function findVisibleOrder(db: Db, viewer: { id: string; isAdmin: boolean }, orderId: string): Promise<OrderRow> {
  const order = await db.order.findUnique({ where: { id: orderId }, include: orderInclude });
  // Another user's order is "not found", not "forbidden": its existence is not revealed.
  if (!order || order.status === 'DELETED' || (order.userId !== viewer.id && !viewer.isAdmin)) throw notFound('Order not found');
  return order;
}

export async function getOrderDetail(deps: Deps, viewer: { id: string; isAdmin: boolean }, orderId: string): Promise<OrderJson> {
  const { db, config } = deps;
  const order = await findVisibleOrder(db, viewer, orderId);
  const open: OpenQuotes = await openQuotes(db, config, order.id, deps.assetPrices.forQuote);
  const quote = open.quotes.find((q) => q.asset === 'ETH') ?? null;
  // ETH's price is the one the shop cannot quote without: said as before (`quoteError`).
  const quoteError = open.notOffered.find((n) => n.asset === 'ETH' && n.reason === PRICE_UNAVAILABLE)?.reason;
  const fresh = await db.order.findUniqueOrThrow({ where: { id: order.id }, include: orderInclude });
  // The order's transfers and those its buyer reported for it: the reported ids first
  // (PaymentReport(orderId)), then one read by either key. A `reports: { some }` inside
  // the OR is planned as a scan of every transfer.
  const reported = await db.paymentReport.findMany({ where: { orderId: order.id }, select: { paymentId: true } });
  const payments = await db.payment.findMany({
    where: { OR: [{ orderId: order.id }, ...(reported.length ? [{ id: { in: reported.map((r) => r.paymentId) } }] : [])] },
    orderBy: { createdAt: 'asc' },
  });
  const paymentsJson: PaymentJson[] = payments.map((p) => {
    const elsewhere = p.orderId !== null && p.orderId !== order.id;
    const unresolved = p.status === 'UNRESOLVED';
    return {
      txHash: p.txHash,
      status: elsewhere ? 'REJECTED' : p.status,
      confirmations: p.confirmations,
      requiredConfirmations: config.paymentConfirmations,
      reason: elsewhere
        ? "This transfer pays another order (its amount carries that order's tag)"
        : unresolved
          ? (p.reason ?? "The amount sent does not match this order's quote; an admin will resolve it")
          : p.reason,
      valueWei: elsewhere || p.asset !== 'ETH' ? null : (p.amount?.toFixed(0) ?? null),
      asset: p.asset,
      amount: elsewhere ? null : (p.amount?.toFixed(0) ?? null),
      usdValue: elsewhere || p.usdValue === null ? null : usdNumber(p.usdValue),
    };
  });
  const overpaid = fresh.status === 'PAID' && fresh.overpaidUsd.gt(fresh.overpaidSettledUsd);
  const [overpayment, refunds, authorization] = await Promise.all([
    overpaid ? overpaymentJson(db, order.id, deps.assetPrices.marketOrNull) : null,
    refundsJson(db, { orderId: order.id }),
    latestAuthorization(db, order.id),
  ]);
  // The order's deposit address is shown while it is the trusted factory's (never a refused factory's, nor an old one's).
  const deposit = fresh.depositAddress && deps.depositFactory.depositAddressOf(fresh.id) === fresh.depositAddress ? fresh.depositAddress : null;
  return {
    ...orderView(fresh),
    quote: quote ? quoteJson(quote, deposit) : null,
    ...(quoteError ? { quoteError } : {}),
    // A token's quote needs the deposit address the buyer is shown: none while the factory is not trusted.
    ...(open.quotes.length > 0 || open.notOffered.length > 0
      ? {
          quotes: open.quotes.filter((q) => q.asset === 'ETH' || deposit).map((q) => assetQuoteJson(config, q, deposit)),
          quotesNotOffered: [
            ...open.notOffered,
            ...open.quotes.filter((q) => q.asset !== 'ETH' && !deposit).map((q) => ({ asset: q.asset, reason: tokenNeedsDepositAddress(q.asset) })),
          ],
        }
      : {}),
    payments: paymentsJson,
    overpayment,
    refunds,
    authorization,
  };
}

/**
 * One page of a buyer's orders, newest first (index Order(userId, createdAt, id)). The
 * buyer is the one asking (signed in): their orders' user is not read again, a round trip
 * less on every page.
 */
export async function myOrdersPage(db: Db, buyer: { id: string; name: string }, status: OrderFilter['status'], page: PageQuery): Promise<OrderRow[]> {
  const rows = await db.order.findMany({
    where: { userId: buyer.id, status: status ? { in: status } : { not: 'DELETED' }, ...(keysetWhere('createdAt', 'desc', page.after) as Prisma.OrderWhereInput) },
    include: { items: orderInclude.items },
    orderBy: keysetOrder('createdAt', 'desc') as Prisma.OrderOrderByWithRelationInput[],
    take: page.limit + 1,
  });
  return rows.map((o) => ({ ...o, user: { id: buyer.id, name: buyer.name } }));
}

export type OrderFilter = { status?: (typeof LISTED_ORDER_STATUSES)[number][]; from?: Date; to?: Date; q?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TX_HASH = /^0x[0-9a-f]{64}$/i;

/** Buyers a search names, looked up first when there are at most this many. */
const SEARCH_BUYERS_MAX = 100;

/**
 * What an admin's search names: an order id or reference (ORD-XXXXXXXX: the range of ids
 * it stands for, `id BETWEEN from AND to` on the primary key), a transaction hash (an order
 * it paid or was reported for), or a buyer by e-mail or name (a part of either, any case; a trigram
 * index on each serves the match). Eight characters alone are a reference copied without
 * its prefix when an order has it (a few rows of the primary key say so), else a name
 * ('Smithson'): never both, which would make the planner sort a busy buyer's orders.
 * The buyers are found first: given their ids, a page
 * is read from Order(userId, createdAt, id) in order, where a join on the match made the
 * planner sort every order of the buyer (10,000 for the busiest one). A search that
 * matches many people stays a join, read newest first across the orders.
 */
async function orderSearch(db: Db, q: string): Promise<Prisma.OrderWhereInput> {
  if (UUID.test(q)) return { id: q.toLowerCase() };
  if (TX_HASH.test(q)) {
    const txHash = q.toLowerCase();
    return { OR: [{ payments: { some: { txHash } } }, { reports: { some: { payment: { txHash } } } }] };
  }
  // A reference (ORD-XXXXXXXX) is the range of ids it stands for, on the primary key.
  const range = orderReferenceRange(q);
  if (range) return { id: { gte: range.from, lte: range.to } };
  const bare = await ordersWithReference(db, q, { bare: true });
  if (bare.length > 0) return { id: { in: bare } };
  const buyer: Prisma.UserWhereInput = { OR: [{ email: { contains: q, mode: 'insensitive' } }, { name: { contains: q, mode: 'insensitive' } }] };
  const buyers = await db.user.findMany({ where: buyer, select: { id: true }, take: SEARCH_BUYERS_MAX + 1 });
  const byBuyer: Prisma.OrderWhereInput = buyers.length <= SEARCH_BUYERS_MAX ? { userId: { in: buyers.map((u) => u.id) } } : { user: buyer };
  return byBuyer;
}

/** One page of every order, newest first, filtered by status, date and search. */
export async function allOrdersPage(db: Db, filter: OrderFilter, page: PageQuery) {
  const where: Prisma.OrderWhereInput = {
    AND: [
      { status: filter.status ? { in: filter.status } : { not: 'DELETED' } },
      filter.from || filter.to ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } } : {},
      filter.q ? await orderSearch(db, filter.q) : {},
      keysetWhere('createdAt', 'desc', page.after) as Prisma.OrderWhereInput,
    ],
  };
  return db.order.findMany({
    where,
    include: { ...orderInclude, payments: { select: { txHash: true, status: true, asset: true, amount: true, usdValue: true } } },
    orderBy: keysetOrder('createdAt', 'desc') as Prisma.OrderOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

export function adminOrderJson(o: Awaited<ReturnType<typeof allOrdersPage>>[number]): AdminOrderJson {
  return {
    ...orderView(o, { userAsObject: true }),
    payments: o.payments.map((p) => ({ txHash: p.txHash, status: p.status, asset: p.asset, amount: p.amount?.toFixed(0) ?? null, usdValue: p.usdValue ? usdNumber(p.usdValue) : null })),
    ...deleteAction(o.status),
  };
}

/** Whether 'Delete Order' applies to an order in this state (core's rule, the one the delete itself keeps). */
function deleteAction(status: Parameters<typeof deleteBlockedReason>[0]) {
  const reason = deleteBlockedReason(status);
  return { canDelete: reason === null, deleteBlockedReason: reason };
}
