import { randomInt } from 'node:crypto';
import {
  createQuote, getEthUsd, MAX_TAG, MICRO_ETH_WEI, openQuote, PAYABLE_STATUSES, Prisma, PriceUnavailableError, releaseStock,
  type Db, type EthUsd, type Quote, type Runtime,
} from '@shop/core';
import { centsToString, formatEth, toCents, type AdminOrderJson, type OrderJson, type PaymentJson, type QuoteJson } from '@shop/core/contract';
import { badRequest, conflict, HttpError, notFound } from '../../errors.ts';

type Deps = Pick<Runtime, 'config' | 'db' | 'redis' | 'chain'>;
const money = (d: Prisma.Decimal) => Number(d.toFixed(2));

export const PRICE_UNAVAILABLE = 'The ETH price is unavailable right now; please try again shortly';

export async function currentPrice(deps: Deps): Promise<EthUsd> {
  try {
    return await getEthUsd(deps);
  } catch (err) {
    if (err instanceof PriceUnavailableError) throw new HttpError(503, PRICE_UNAVAILABLE);
    throw err;
  }
}

const orderInclude = {
  items: { orderBy: { id: 'asc' } },
  user: { select: { id: true, name: true } },
} satisfies Prisma.OrderInclude;
type OrderRow = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

function quoteJson(q: Quote): QuoteJson {
  return {
    ethUsd: q.ethUsd.toFixed(8),
    amountWei: q.amountWei.toFixed(0),
    // The tag sits below the 6th decimal: shown amounts are the quoted base amount.
    amountEth: formatEth(BigInt(q.amountWei.toFixed(0)) - (BigInt(q.amountWei.toFixed(0)) % MICRO_ETH_WEI), 6),
    usdAmount: money(q.usdAmount),
    receivingAddress: q.receivingAddress,
    chainId: q.chainId,
    expiresAt: q.expiresAt.toISOString(),
  };
}

export function orderJson(o: OrderRow, opts: { userAsObject?: boolean } = {}): OrderJson {
  return {
    _id: o.id,
    user: opts.userAsObject ? { _id: o.user.id, name: o.user.name } : o.user.id,
    status: o.status,
    isPaid: o.status === 'PAID',
    createdAt: o.createdAt.toISOString(),
    paidAt: o.paidAt?.toISOString() ?? null,
    expiresAt: o.expiresAt?.toISOString() ?? null,
    paymentDeadline: o.paymentDeadline?.toISOString() ?? null,
    itemsPrice: money(o.itemsPrice),
    totalPrice: money(o.totalPrice),
    paidUsd: money(o.paidUsd),
    orderedItems: o.items.map((i) => ({ name: i.name, image: i.image, price: money(i.price), qty: i.qty, product: i.productId })),
  };
}

/** Random tags tried per order; with a million tags, all taken only when nearly all are live. */
const TAG_CANDIDATES = 16;

function isTagCollision(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002' && JSON.stringify(err.meta ?? {}).includes('paymentTag');
}

/**
 * Places an order: priced from the database, stock reserved in the same transaction
 * (a conditional decrement, so concurrent orders never take it below zero), a payment
 * tag no other open order holds, and the first quote.
 */
export async function createOrder(
  deps: Deps,
  userId: string,
  input: { orderedItems: { _id: string; qty: number }[]; itemsPrice: string; totalPrice: string },
): Promise<OrderJson> {
  const { db, config, chain } = deps;
  if (input.orderedItems.length === 0) throw badRequest('No order items');
  const ids = input.orderedItems.map((l) => l._id.toLowerCase());
  if (new Set(ids).size !== ids.length) throw badRequest('Each package may appear only once in an order');

  const price = await currentPrice(deps);
  const head = await chain.getBlockNumber({ cacheTime: 0 }).catch(() => {
    throw new HttpError(503, 'The Ethereum network is unreachable right now; please try again shortly');
  });

  for (let attempt = 0; ; attempt++) {
    try {
      const id = await db.$transaction(async (tx) => {
        const products = await tx.product.findMany({ where: { id: { in: ids }, deletedAt: null } });
        const lines = input.orderedItems.map((line) => {
          const product = products.find((p) => p.id === line._id.toLowerCase());
          if (!product) throw badRequest(`Package not found: ${line._id}`);
          return { product, qty: line.qty };
        });
        const totalCents = lines.reduce((sum, l) => sum + toCents(l.product.price.toFixed(2)) * BigInt(l.qty), 0n);
        const total = centsToString(totalCents);
        if (toCents(input.totalPrice) !== totalCents || toCents(input.itemsPrice) !== totalCents) {
          throw conflict(`Prices have changed: the total is now $${total}. Please review your cart.`);
        }
        // A free tag: a few random candidates, checked in one read; the partial unique
        // index settles a race between two orders that drew the same one (retried below).
        const candidates = Array.from({ length: TAG_CANDIDATES }, () => randomInt(1, MAX_TAG + 1));
        const taken = new Set(
          (await tx.order.findMany({ where: { paymentTag: { in: candidates } }, select: { paymentTag: true } })).map((o) => o.paymentTag),
        );
        const tag = candidates.find((c) => !taken.has(c));
        if (tag === undefined) throw new HttpError(503, 'Too many open orders right now; please try again shortly');
        const now = new Date();
        const order = await tx.order.create({
          data: {
            userId,
            itemsPrice: new Prisma.Decimal(total),
            totalPrice: new Prisma.Decimal(total),
            paymentTag: tag,
            placedAtBlock: head,
            createdAt: now,
            paymentDeadline: new Date(now.getTime() + config.paymentWindowMinutes * 60_000),
            items: {
              create: lines.map(({ product, qty }) => ({
                productId: product.id,
                name: product.name,
                image: product.image,
                price: product.price,
                qty,
                dailyCredit: product.dailyCredit,
                durationDays: product.durationDays,
              })),
            },
          },
        });
        await createQuote(tx, config, { id: order.id, paymentTag: tag, cents: totalCents }, price, now);
        // Stock last: the row locks it takes are held only until the commit that follows,
        // so orders for one popular package queue for as short a time as possible. Rows
        // are locked in id order, so two orders never wait on each other's rows.
        for (const { product, qty } of [...lines].sort((x, y) => (x.product.id < y.product.id ? -1 : 1))) {
          const n = await tx.$executeRaw`
            UPDATE "Product" SET "countInStock" = "countInStock" - ${qty}, "updatedAt" = now()
            WHERE "id" = ${product.id}::uuid AND "deletedAt" IS NULL AND "countInStock" >= ${qty}`;
          if (n !== 1) {
            const left = (await tx.product.findUnique({ where: { id: product.id }, select: { countInStock: true } }))?.countInStock ?? 0;
            throw conflict(`Not enough stock for ${product.name}: ${left} left`);
          }
        }
        // One account may hold only a few unpaid orders (each holds stock). Checked under
        // the buyer's row lock, taken after the package rows as every other path that
        // locks both does, so two concurrent orders cannot both slip under the cap. NO KEY
        // UPDATE: the order insert above holds a key-share lock on the same row, which a
        // plain FOR UPDATE would wait on (a deadlock between two orders of one buyer).
        await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ${userId}::uuid FOR NO KEY UPDATE`;
        const open = await tx.order.count({ where: { userId, status: { in: [...PAYABLE_STATUSES] } } });
        if (open > config.maxOpenOrdersPerUser) {
          throw conflict(
            `You already have ${open - 1} unpaid orders. Pay for them, or wait until they expire, before placing another.`,
          );
        }
        return order.id;
      });
      return orderJson(await db.order.findUniqueOrThrow({ where: { id }, include: orderInclude }));
    } catch (err) {
      // Two orders drew the same free tag at once: the database let one through; retry the other.
      if (isTagCollision(err) && attempt < 5) continue;
      throw err;
    }
  }
}

async function findVisibleOrder(db: Db, viewer: { id: string; isAdmin: boolean }, orderId: string): Promise<OrderRow> {
  const order = await db.order.findUnique({ where: { id: orderId }, include: orderInclude });
  // Another user's order is "not found", not "forbidden": its existence is not revealed.
  if (!order || (order.userId !== viewer.id && !viewer.isAdmin)) throw notFound('Order not found');
  return order;
}

export async function getOrderDetail(deps: Deps, viewer: { id: string; isAdmin: boolean }, orderId: string): Promise<OrderJson> {
  const { db, config } = deps;
  const order = await findVisibleOrder(db, viewer, orderId);
  let quote: Quote | null = null;
  let quoteError: string | undefined;
  try {
    quote = await openQuote(db, config, order.id, () => getEthUsd(deps));
  } catch (err) {
    if (!(err instanceof PriceUnavailableError)) throw err;
    quoteError = PRICE_UNAVAILABLE;
  }
  const fresh = await db.order.findUniqueOrThrow({ where: { id: order.id }, include: orderInclude });
  const payments = await db.payment.findMany({
    where: { OR: [{ orderId: order.id }, { reportedOrderId: order.id }] },
    orderBy: { createdAt: 'asc' },
  });
  const paymentsJson: PaymentJson[] = payments.map((p) => {
    const elsewhere = p.orderId !== null && p.orderId !== order.id;
    const unresolved = p.status === 'UNRESOLVED';
    return {
      txHash: p.txHash,
      status: elsewhere || unresolved ? 'REJECTED' : p.status,
      confirmations: p.confirmations,
      requiredConfirmations: config.paymentConfirmations,
      reason: elsewhere ? 'This transfer pays another order (its amount carries that order\'s tag)' : unresolved ? 'The amount sent does not match this order\'s quote; an admin will resolve it' : p.reason,
      valueWei: elsewhere ? null : p.valueWei?.toFixed(0) ?? null,
      usdValue: elsewhere || p.usdValue === null ? null : money(p.usdValue),
    };
  });
  return { ...orderJson(fresh), quote: quote ? quoteJson(quote) : null, ...(quoteError ? { quoteError } : {}), payments: paymentsJson };
}

export async function listMyOrders(db: Db, userId: string): Promise<OrderJson[]> {
  const orders = await db.order.findMany({ where: { userId }, include: orderInclude, orderBy: { createdAt: 'desc' } });
  return orders.map((o) => orderJson(o));
}

export async function listAllOrders(db: Db): Promise<AdminOrderJson[]> {
  const orders = await db.order.findMany({
    include: { ...orderInclude, payments: { select: { txHash: true, status: true, usdValue: true } } },
    orderBy: { createdAt: 'desc' },
  });
  return orders.map((o) => ({
    ...orderJson(o, { userAsObject: true }),
    payments: o.payments.map((p) => ({ txHash: p.txHash, status: p.status, usdValue: p.usdValue ? money(p.usdValue) : null })),
  }));
}

/**
 * The buyer reports a transaction hash. It never pays the order: it records the hash
 * for the worker, which attributes the transfer by its tag. A hash that already pays
 * another order is a conflict.
 */
export async function reportPayment(
  { db, config }: Pick<Deps, 'db' | 'config'>,
  user: { id: string },
  orderId: string,
  txHash: string,
): Promise<{ paymentId: string; status: string }> {
  const order = await db.order.findUnique({ where: { id: orderId }, select: { id: true, userId: true } });
  if (!order || order.userId !== user.id) throw notFound('Order not found');
  const existing = await db.payment.findUnique({ where: { txHash } });
  const check = (p: { id: string; orderId: string | null; status: string }) => {
    if (p.orderId && p.orderId !== orderId) throw conflict('This transaction was already used for another order');
    return { paymentId: p.id, status: p.status };
  };
  if (existing) return check(existing);
  try {
    const created = await db.$transaction(async (tx) => {
      // New hashes of one order are counted under its row lock, so the cap holds under
      // concurrency; the same hash reported at once by several requests is one report.
      await tx.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
      const raced = await tx.payment.findUnique({ where: { txHash } });
      if (raced) return raced;
      const waiting = await tx.payment.count({ where: { reportedOrderId: orderId, source: 'REPORTED', status: 'PENDING' } });
      if (waiting >= config.maxPendingReportsPerOrder) {
        throw conflict(
          `This order already has ${waiting} reported payments waiting to be found or confirmed on chain. Wait until they are confirmed or rejected before reporting another.`,
        );
      }
      return tx.payment.create({
        data: { txHash, source: 'REPORTED', status: 'PENDING', reportedById: user.id, reportedOrderId: orderId },
      });
    });
    return check(created);
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      // A concurrent report of the same hash won the insert.
      return check(await db.payment.findUniqueOrThrow({ where: { txHash } }));
    }
    throw err;
  }
}

/** Admin delete: unpaid orders only (paid ones are financial records); stock released once. */
export async function deleteOrder(db: Db, orderId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ status: string }[]>`SELECT "status" FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
    const row = rows[0];
    if (!row) throw notFound('Order not found');
    if (row.status === 'PAID') throw badRequest('Paid orders cannot be deleted');
    await releaseStock(tx, orderId);
    // Transfers already seen stay on record for an admin to refund.
    await tx.payment.updateMany({
      where: { orderId, status: { in: ['COUNTED', 'PENDING', 'LATE'] } },
      data: { status: 'UNRESOLVED', orderId: null, reason: 'Its order was deleted; an admin will refund it' },
    });
    await tx.order.delete({ where: { id: orderId } });
  });
}
