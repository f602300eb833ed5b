import { randomInt } from 'node:crypto';
import type { PublicClient } from 'viem';
import type { AppConfig } from '../config.ts';
import { centsToString, toCents } from '../contract/money.ts';
import { Prisma, type Db, type OrderStatus } from '../db.ts';
import { badRequest, conflict, notFound, unavailable, UserError } from '../errors.ts';
import type { Redis } from '../redis.ts';
import { MAX_TAG, quoteAmountWei } from './amounts.ts';
import { getEthUsd, type EthUsd } from './eth-price.ts';
import { releaseStock, reserveStock } from './stock.ts';
import { emitEvent, emitPaymentUnresolved, orderEventData } from '../webhooks.ts';

/**
 * The order lifecycle, in one place: placement (price, tag, first quote, stock), quotes,
 * the buyer's payment reports, expiry and deletion. Settlement (counting transfers) is
 * next door in settle.ts and uses the status sets named here.
 */
type Tx = Prisma.TransactionClient;
const HOUR = 3600_000;

export const ORDER_DELETED = 'Its order was deleted; an admin will assign or refund it';

/** Orders a buyer can still pay: they get quotes and count toward the open-orders cap. */
export const PAYABLE_STATUSES = ['PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING'] as const satisfies readonly OrderStatus[];
/** Orders whose payment window can run out: their stock is released then (LATE ones keep their status for an admin). */
export const EXPIRABLE_STATUSES = [...PAYABLE_STATUSES, 'LATE'] as const satisfies readonly OrderStatus[];
/** Orders done with paying: their tag is freed once no late transfer can still arrive for them. */
export const SETTLED_STATUSES = ['PAID', 'EXPIRED', 'LATE', 'DELETED'] as const satisfies readonly OrderStatus[];

export const isPayable = (status: OrderStatus) => (PAYABLE_STATUSES as readonly OrderStatus[]).includes(status);

/** USD still due on an order, in cents (never negative). */
export function dueCents(order: { totalPrice: Prisma.Decimal; paidUsd: Prisma.Decimal }): bigint {
  const due = toCents(order.totalPrice.toFixed(2)) - toCents(order.paidUsd.toFixed(2));
  return due > 0n ? due : 0n;
}

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
  const ttlEnd = now.getTime() + config.quoteTtlSeconds * 1000;
  const expiresAt = new Date(order.paymentDeadline ? Math.min(ttlEnd, order.paymentDeadline.getTime()) : ttlEnd);
  return tx.paymentQuote.create({
    data: {
      orderId: order.id,
      ethUsd: new Prisma.Decimal(price.price),
      usdAmount: new Prisma.Decimal(order.cents.toString()).dividedBy(100),
      amountWei: new Prisma.Decimal(quoteAmountWei(order.cents, price.answer, order.paymentTag).toString()),
      receivingAddress: config.receivingAddress,
      chainId: config.chainId,
      createdAt: now,
      expiresAt,
    },
  });
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

/** Random tags tried per order; with a million tags, all taken only when nearly all are held. */
const TAG_CANDIDATES = 16;

function isTagCollision(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002' && JSON.stringify(err.meta ?? {}).includes('paymentTag');
}

export type PlaceOrderDeps = { config: AppConfig; db: Db; redis: Redis; chain: PublicClient };
export type OrderLine = { _id: string; qty: number };

/**
 * Places an order: priced from the database (a client total that differs is a 409),
 * a tag no other order holds, the first quote, the stock (all or nothing), and at most
 * MAX_OPEN_ORDERS_PER_USER unpaid orders per buyer, in one transaction. Returns its id.
 */
export async function placeOrder(deps: PlaceOrderDeps, userId: string, input: { orderedItems: OrderLine[]; itemsPrice: string; totalPrice: string }): Promise<string> {
  const { db, config, chain } = deps;
  if (input.orderedItems.length === 0) throw badRequest('No order items');
  const ids = input.orderedItems.map((l) => l._id.toLowerCase());
  if (new Set(ids).size !== ids.length) throw badRequest('Each package may appear only once in an order');

  const price = await getEthUsd(deps);
  const head = await chain.getBlockNumber({ cacheTime: 0 }).catch(() => {
    throw unavailable('The Ethereum network is unreachable right now; please try again shortly');
  });

  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => {
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
        if (tag === undefined) throw new UserError(503, 'Too many open orders right now; please try again shortly');
        const now = new Date();
        const paymentDeadline = new Date(now.getTime() + config.paymentWindowMinutes * 60_000);
        const order = await tx.order.create({
          data: {
            userId,
            itemsPrice: new Prisma.Decimal(total),
            totalPrice: new Prisma.Decimal(total),
            paymentTag: tag,
            placedAtBlock: head,
            createdAt: now,
            paymentDeadline,
            stockReserved: false,
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
        await createQuote(tx, config, { id: order.id, paymentTag: tag, cents: totalCents, paymentDeadline }, price, now);
        // Stock last: its row locks are held only until the commit that follows, so
        // orders for one popular package queue for as short a time as possible.
        const short = await reserveStock(tx, order.id, { forNewOrder: true });
        if (short) throw conflict(`Not enough stock for ${short.name}: ${short.left} left`);
        // One account may hold only a few unpaid orders (each holds stock). Checked under
        // the buyer's row lock, taken after the package rows as every other path that
        // locks both does, so two concurrent orders cannot both slip under the cap. NO KEY
        // UPDATE: the order insert above holds a key-share lock on the same row, which a
        // plain FOR UPDATE would wait on (a deadlock between two orders of one buyer).
        await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ${userId}::uuid FOR NO KEY UPDATE`;
        const open = await tx.order.count({ where: { userId, status: { in: [...PAYABLE_STATUSES] } } });
        if (open > config.maxOpenOrdersPerUser) {
          throw conflict(`You already have ${open - 1} unpaid orders. Pay for them, or wait until they expire, before placing another.`);
        }
        return order.id;
      });
    } catch (err) {
      // Two orders drew the same free tag at once: the database let one through; retry the other.
      if (isTagCollision(err) && attempt < 5) continue;
      throw err;
    }
  }
}

/**
 * The buyer reports a transaction hash. It never pays the order: it records the hash
 * for the worker, which attributes the transfer by its tag. A hash that already pays
 * another order is a conflict; an order takes only a few new hashes still waiting to be
 * found or confirmed. Returns the payment and whether the caller should queue it.
 */
export async function recordPaymentReport(
  db: Db,
  config: AppConfig,
  user: { id: string },
  orderId: string,
  txHash: string,
): Promise<{ paymentId: string; status: string }> {
  const order = await db.order.findUnique({ where: { id: orderId }, select: { userId: true, status: true } });
  if (!order || order.userId !== user.id || order.status === 'DELETED') throw notFound('Order not found');
  const check = (p: { id: string; orderId: string | null; status: string }) => {
    if (p.orderId && p.orderId !== orderId) throw conflict('This transaction was already used for another order');
    return { paymentId: p.id, status: p.status };
  };
  const existing = await db.payment.findUnique({ where: { txHash } });
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
      return tx.payment.create({ data: { txHash, source: 'REPORTED', status: 'PENDING', reportedById: user.id, reportedOrderId: orderId } });
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

/**
 * Orders whose payment window is over, with no transfer still being verified for them
 * (a payment seen in the mempool holds its order open): unpaid ones become EXPIRED, and
 * both they and LATE ones give their stock back, once. Tags of settled orders are freed
 * once no late transfer can still arrive for them (LATE_PAYMENT_HOURS after their last
 * quote, payment or deletion).
 */
export async function expireOrders(db: Db, config: AppConfig, now = new Date()): Promise<{ expired: number; released: number; tagsReleased: number }> {
  const waiting = { none: { status: 'PENDING' as const } };
  // A transfer mined and waiting for confirmations holds its order; one still in the
  // mempool only for MEMPOOL_GRACE_MINUTES past the window.
  const graceEnd = new Date(now.getTime() - config.mempoolGraceMinutes * 60_000);
  const candidates = await db.order.findMany({
    where: {
      paymentDeadline: { lt: now },
      payments: { none: { status: 'PENDING', blockNumber: { not: null } } },
      AND: [
        { OR: [{ paymentDeadline: { lt: graceEnd } }, { payments: waiting }] },
        { OR: [{ status: { in: [...PAYABLE_STATUSES] } }, { status: 'LATE', stockReserved: true }] },
      ],
    },
    select: { id: true },
    take: 500,
  });
  let expired = 0;
  let released = 0;
  for (const { id } of candidates) {
    await db.$transaction(async (tx) => {
      // Payments first, then the order: the order every payment path locks them in.
      await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "orderId" = ${id}::uuid ORDER BY "id" FOR UPDATE`;
      const rows = await tx.$queryRaw<{ status: OrderStatus; paymentDeadline: Date | null }[]>`
        SELECT "status", "paymentDeadline" FROM "Order" WHERE "id" = ${id}::uuid FOR UPDATE`;
      const status = rows[0]?.status;
      if (!status || !(EXPIRABLE_STATUSES as readonly OrderStatus[]).includes(status)) return;
      const inGrace = (rows[0]?.paymentDeadline?.getTime() ?? 0) >= graceEnd.getTime();
      const holding = await tx.payment.count({ where: { orderId: id, status: 'PENDING', ...(inGrace ? {} : { blockNumber: { not: null } }) } });
      if (holding > 0) return;
      if (status !== 'LATE') {
        // Paid in part when its window ran out: what was paid waits for an admin (LATE),
        // to be refunded or assigned, and the order with it.
        const partial = await tx.payment.updateMany({
          where: { orderId: id, status: 'COUNTED' },
          data: { status: 'LATE', reason: 'Its order expired before it was fully paid; an admin will refund it or assign it' },
        });
        const updated = await tx.order.update({
          where: { id },
          data: partial.count > 0 ? { status: 'LATE', paidUsd: new Prisma.Decimal(0), overpaidUsd: new Prisma.Decimal(0) } : { status: 'EXPIRED' },
        });
        await emitEvent(tx, partial.count > 0 ? 'order.late' : 'order.expired', `order:${id}`, orderEventData(updated));
        expired++;
      }
      if (await releaseStock(tx, id)) released++;
    });
  }
  const monitorCutoff = new Date(now.getTime() - config.latePaymentHours * HOUR);
  const freed = await db.order.updateMany({
    where: {
      paymentTag: { not: null },
      status: { in: [...SETTLED_STATUSES] },
      quotes: { every: { expiresAt: { lt: monitorCutoff } } },
      AND: [{ OR: [{ paidAt: { lt: monitorCutoff } }, { paidAt: null }] }, { OR: [{ deletedAt: { lt: monitorCutoff } }, { deletedAt: null }] }],
      payments: waiting,
    },
    data: { paymentTag: null },
  });
  return { expired, released, tagsReleased: freed.count };
}

/**
 * An admin deletes an unpaid order (paid ones are financial records). Its stock is
 * released once; transfers already seen wait for an admin (UNRESOLVED); the order stays
 * as DELETED so its tag is kept through the monitoring window and a late transfer
 * carrying it is never taken for another order's.
 */
export async function deleteOrder(db: Db, orderId: string, now = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    // Locks in the order every payment path takes them: the order's payments first
    // (in id order), then the order, then (releasing stock) its packages.
    await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "orderId" = ${orderId}::uuid ORDER BY "id" FOR UPDATE`;
    const rows = await tx.$queryRaw<{ status: OrderStatus }[]>`SELECT "status" FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
    const status = rows[0]?.status;
    if (!status || status === 'DELETED') throw notFound('Order not found');
    if (status === 'PAID') throw badRequest('Paid orders cannot be deleted');
    await releaseStock(tx, orderId);
    // Value that arrived waits for an admin; a transfer still being verified is judged
    // again without the order (its tag now names a deleted order: UNRESOLVED too).
    const waiting = await tx.payment.findMany({ where: { orderId, status: { in: ['COUNTED', 'LATE'] } } });
    await tx.payment.updateMany({ where: { id: { in: waiting.map((p) => p.id) } }, data: { status: 'UNRESOLVED', orderId: null, reason: ORDER_DELETED } });
    for (const p of waiting) await emitPaymentUnresolved(tx, p, ORDER_DELETED);
    await tx.payment.updateMany({ where: { orderId, status: 'PENDING' }, data: { orderId: null } });
    await tx.order.update({ where: { id: orderId }, data: { status: 'DELETED', deletedAt: now, paidUsd: new Prisma.Decimal(0), overpaidUsd: new Prisma.Decimal(0) } });
  });
}
