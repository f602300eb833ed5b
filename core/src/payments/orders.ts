import { randomInt, randomUUID } from 'node:crypto';
import type { PublicClient } from 'viem';
import type { AppConfig } from '../config.ts';
import { centsToString, toCents } from '../contract/money.ts';
import { Prisma, type Db, type OrderStatus } from '../db.ts';
import { badRequest, conflict, isUnavailable, notFound, unavailable, UserError } from '../errors.ts';
import { isNodeFailure } from '../chain/errors.ts';
import type { Redis } from '../redis.ts';
import { MAX_TAG, quoteAmountWei } from './amounts.ts';
import { PriceUnavailableError, type EthUsd, type PriceSource } from './eth-price.ts';
import { lockPackages, releaseStock, shortageOf, writeReservations } from './stock.ts';
import { chainHead } from '../chain/head.ts';
import { emitEvent, emitPaymentUnresolved, orderEventData } from '../webhooks.ts';
import { ORDER_CANCELLED, ORDER_DELETED } from './reasons.ts';

/**
 * The order lifecycle, in one place: placement (price, tag, first quote, stock), quotes,
 * the buyer's payment reports, expiry and deletion. Settlement (counting transfers) is
 * next door in settle.ts and uses the status sets named here.
 */
type Tx = Prisma.TransactionClient;
const HOUR = 3600_000;

/** Orders a buyer can still pay: they get quotes and count toward the open-orders cap. */
export const PAYABLE_STATUSES = ['PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING'] as const satisfies readonly OrderStatus[];
/** Orders whose payment window can run out: their stock is released then (LATE ones keep their status for an admin). */
export const EXPIRABLE_STATUSES = [...PAYABLE_STATUSES, 'LATE'] as const satisfies readonly OrderStatus[];
/** Orders done with paying: their tag is freed once no late transfer can still arrive for them. */
export const SETTLED_STATUSES = ['PAID', 'EXPIRED', 'LATE', 'DELETED', 'CANCELLED'] as const satisfies readonly OrderStatus[];

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
  return tx.paymentQuote.create({ data: quoteFields(config, order, price, now) });
}

/** A quote's columns (the one place they are computed; placeOrders writes many at once). */
function quoteFields(config: AppConfig, order: { id: string; paymentTag: number; cents: bigint; paymentDeadline: Date | null }, price: EthUsd, now: Date) {
  const ttlEnd = now.getTime() + config.quoteTtlSeconds * 1000;
  const expiresAt = new Date(order.paymentDeadline ? Math.min(ttlEnd, order.paymentDeadline.getTime()) : ttlEnd);
  return {
    orderId: order.id,
    ethUsd: new Prisma.Decimal(price.price),
    usdAmount: new Prisma.Decimal(order.cents.toString()).dividedBy(100),
    amountWei: new Prisma.Decimal(quoteAmountWei(order.cents, price.answer, order.paymentTag).toString()),
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

/** Below this many, a buyer may hold all of a package's stock in unpaid orders. */
const STOCK_SHARE_FLOOR = 5;

/**
 * How much of a package one buyer's unpaid orders may hold: MAX_UNPAID_STOCK_SHARE_PERCENT
 * of what is in stock plus what they hold already, and at least STOCK_SHARE_FLOOR (a
 * package with little stock can still be bought up at once).
 */
function stockShareCap(config: Pick<AppConfig, 'maxUnpaidStockSharePercent'>, stock: number): number {
  return Math.max(STOCK_SHARE_FLOOR, Math.floor((stock * config.maxUnpaidStockSharePercent) / 100));
}

/** Rounds of fresh tags an order gets when the one it drew is held by another order. */
const TAG_ROUNDS = 16;

export type PlaceOrderDeps = { config: AppConfig; db: Db; redis: Redis; chain: PublicClient; prices: PriceSource };
export type OrderLine = { _id: string; qty: number };
export type OrderInput = { orderedItems: OrderLine[]; itemsPrice: string; totalPrice: string };
export type OrderRequest = { userId: string; input: OrderInput };
export type PlacedOrder = Prisma.OrderGetPayload<{ include: { items: true } }>;
/** What a batch is placed at: the price of its quotes and the head block (placedAtBlock), read once. */
export type PlacingAt = { price: EthUsd; head: bigint };

/** Thrown when some orders of a batch found no free tag: the others were judged with them, so each is placed again alone. */
class PlaceAlone extends Error {}

/** The price and the head block orders are placed at (Redis, the node only when Redis has none fresh). */
export async function placingAt(deps: PlaceOrderDeps): Promise<PlacingAt> {
  const price = await deps.prices.current();
  const head = await chainHead(deps).catch(() => {
    throw unavailable('The Ethereum network is unreachable right now; please try again shortly');
  });
  return { price, head };
}

/** What can be refused without the database: no lines, a package named twice. */
function checkLines(input: OrderInput): void {
  if (input.orderedItems.length === 0) throw badRequest('No order items');
  const ids = input.orderedItems.map((l) => l._id.toLowerCase());
  if (new Set(ids).size !== ids.length) throw badRequest('Each package may appear only once in an order');
}

const linesOf = (input: OrderInput) => input.orderedItems.map((l) => ({ productId: l._id.toLowerCase(), qty: l.qty }));

/**
 * Places orders, many in one transaction (a flash sale's requests arrive together:
 * see createOrderDesk), each one judged on its own, in the order given:
 * - priced from the database under the packages' row locks (a client total that
 *   differs is a 409);
 * - its stock, all or nothing (shortageOf in stock.ts, against what the orders before
 *   it in the batch left);
 * - at most MAX_OPEN_ORDERS_PER_USER unpaid orders per buyer, counted under the
 *   buyer's row lock, taken after the package rows as every path that locks both does;
 * - a tag no other live order holds (the partial unique index decides; a taken one is
 *   drawn again), its first quote, and `placedAtBlock` from the shared head (chain/head.ts).
 * Returns, per request, the order with its items or the UserError refusing it.
 */
export async function placeOrders(deps: PlaceOrderDeps, requests: OrderRequest[], at?: PlacingAt): Promise<(PlacedOrder | UserError)[]> {
  const { db, config } = deps;
  const results: (PlacedOrder | UserError | null)[] = requests.map(() => null);
  const done = () => results.map((r) => r ?? new UserError(503, 'The order could not be placed; please try again'));
  const open: number[] = [];
  requests.forEach((r, i) => {
    try {
      checkLines(r.input);
      open.push(i);
    } catch (err) {
      results[i] = err as UserError;
    }
  });
  if (open.length === 0) return done();
  const { price, head } = at ?? (await placingAt(deps));

  await db.$transaction(async (tx) => {
    const packages = await lockPackages(tx, open.flatMap((i) => linesOf(requests[i]!.input).map((l) => l.productId)));
    const userOf = (i: number) => requests[i]!.userId.toLowerCase();
    const userIds = [...new Set(open.map(userOf))].sort();
    await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ANY(${userIds}::uuid[]) ORDER BY "id" FOR NO KEY UPDATE`;
    // Unpaid orders held now, and tags held by orders not paid (open, or expired, cancelled
    // or deleted and still in their monitoring window: their tag is not free yet).
    // (A LATE order counts while it holds its stock: a buyer could otherwise send a few cents
    // with a lapsed quote's tag to take an order of their own out of both counts.)
    const counts = await tx.$queryRaw<{ userId: string; n: number; tags: number }[]>`
      SELECT "userId", (count(*) FILTER (WHERE "status"::text = ANY(${[...PAYABLE_STATUSES]}::text[]) OR ("status" = 'LATE' AND "stockReserved")))::int AS "n",
             (count(*) FILTER (WHERE "status" <> 'PAID'))::int AS "tags"
      FROM "Order" WHERE "userId" = ANY(${userIds}::uuid[]) AND "paymentTag" IS NOT NULL GROUP BY "userId"`;
    const unpaid = new Map(counts.map((c) => [c.userId, c.n]));
    const tagsHeld = new Map(counts.map((c) => [c.userId, c.tags]));
    // What each buyer's unpaid orders hold of these packages (a share of each is theirs at most).
    const productIds = [...packages.keys()];
    const holding = await tx.$queryRaw<{ userId: string; productId: string; qty: number }[]>`
      SELECT o."userId", i."productId", SUM(i."qty")::int AS "qty"
      FROM "OrderItem" i JOIN "Order" o ON o."id" = i."orderId"
      WHERE o."userId" = ANY(${userIds}::uuid[]) AND i."productId" = ANY(${productIds}::uuid[])
        AND o."status"::text = ANY(${[...EXPIRABLE_STATUSES]}::text[]) AND o."stockReserved"
      GROUP BY 1, 2`;
    const held = new Map(holding.map((h) => [`${h.userId}/${h.productId}`, h.qty]));

    const now = new Date();
    const paymentDeadline = new Date(now.getTime() + config.paymentWindowMinutes * 60_000);
    type Accepted = { i: number; id: string; cents: bigint; lines: { productId: string; qty: number }[] };
    const accepted: Accepted[] = [];
    for (const i of open) {
      const { input } = requests[i]!;
      const userId = userOf(i);
      const lines = linesOf(input);
      const missing = input.orderedItems.find((l) => !packages.get(l._id.toLowerCase()) || packages.get(l._id.toLowerCase())!.deletedAt);
      if (missing) {
        results[i] = badRequest(`Package not found: ${missing._id}`);
        continue;
      }
      // A draft (never published, or taken off sale) cannot be ordered, whatever a cart still holds.
      const draft = input.orderedItems.find((l) => !packages.get(l._id.toLowerCase())!.publishedAt);
      if (draft) {
        results[i] = badRequest(`This package is not on sale: ${draft._id}`);
        continue;
      }
      const cents = lines.reduce((sum, l) => sum + toCents(packages.get(l.productId)!.price.toFixed(2)) * BigInt(l.qty), 0n);
      if (cents === 0n) {
        results[i] = conflict('This order comes to $0.00: a package without a price cannot be ordered');
        continue;
      }
      if (toCents(input.totalPrice) !== cents || toCents(input.itemsPrice) !== cents) {
        results[i] = conflict(`Prices have changed: the total is now $${centsToString(cents)}. Please review your cart.`);
        continue;
      }
      const short = shortageOf(lines, packages, { forNewOrder: true });
      if (short) {
        results[i] = conflict(`Not enough stock for ${short.name}: ${short.left} left`);
        continue;
      }
      // One account may hold only a few unpaid orders (each holds stock and a tag), ...
      const openOrders = unpaid.get(userId) ?? 0;
      if (openOrders + 1 > config.maxOpenOrdersPerUser) {
        results[i] = conflict(`You already have ${openOrders} unpaid orders. Pay for one, cancel one, or wait until they expire, before placing another.`);
        continue;
      }
      // ... only so many tags, cancelling or abandoning orders one after another ...
      const tags = tagsHeld.get(userId) ?? 0;
      if (tags + 1 > config.maxHeldTagsPerUser) {
        const hours = config.latePaymentHours;
        results[i] = conflict(`You have ${tags} unpaid orders from the last ${hours} hours (cancelled, expired or open): pay for one, or try again once the oldest is ${hours} hours old.`);
        continue;
      }
      // ... and only a share of each package's stock until it pays.
      const hog = lines.map((l) => {
        const p = packages.get(l.productId)!;
        const mine = held.get(`${userId}/${l.productId}`) ?? 0;
        return { p, mine, cap: stockShareCap(config, p.countInStock + mine), qty: l.qty };
      }).find((h) => h.mine + h.qty > h.cap);
      if (hog) {
        results[i] = conflict(`At most ${hog.cap} of ${hog.p.name} can wait in one buyer's unpaid orders${hog.mine ? ` (yours hold ${hog.mine})` : ''}: order fewer, or pay for an open order first.`);
        continue;
      }
      unpaid.set(userId, openOrders + 1);
      tagsHeld.set(userId, tags + 1);
      for (const l of lines) {
        packages.get(l.productId)!.countInStock -= l.qty;
        held.set(`${userId}/${l.productId}`, (held.get(`${userId}/${l.productId}`) ?? 0) + l.qty);
      }
      accepted.push({ i, id: randomUUID(), cents, lines });
    }
    if (accepted.length === 0) return;

    // Tags: drawn at random; an order whose tag another live order holds draws again.
    const tags = new Map<string, number>();
    const orders = new Map<string, Prisma.OrderGetPayload<object>>();
    let pending = accepted;
    for (let round = 0; pending.length > 0 && round < TAG_ROUNDS; round++) {
      for (const o of pending) tags.set(o.id, randomInt(1, MAX_TAG + 1));
      const inserted = await tx.$queryRaw<Prisma.OrderGetPayload<object>[]>`
        INSERT INTO "Order" ("id", "userId", "itemsPrice", "totalPrice", "paymentTag", "placedAtBlock", "createdAt", "updatedAt", "paymentDeadline", "stockReserved")
        SELECT o."id", o."userId", o."total", o."total", o."tag", ${head.toString()}::bigint, ${now}, ${now}, ${paymentDeadline}, true
        FROM unnest(${pending.map((o) => o.id)}::uuid[], ${pending.map((o) => requests[o.i]!.userId)}::uuid[],
                    ${pending.map((o) => centsToString(o.cents))}::numeric[], ${pending.map((o) => tags.get(o.id)!)}::int[]) AS o("id", "userId", "total", "tag")
        ON CONFLICT ("paymentTag") WHERE "paymentTag" IS NOT NULL DO NOTHING
        RETURNING *`;
      for (const row of inserted) orders.set(row.id, row);
      pending = pending.filter((o) => !orders.has(o.id));
    }
    if (pending.length > 0) {
      // Judged with the others of the batch, they held stock and places the others were refused for.
      if (accepted.length > 1) throw new PlaceAlone();
      results[pending[0]!.i] = new UserError(503, 'Too many open orders right now; please try again shortly');
      return;
    }
    const placed = accepted;
    if (placed.length === 0) return;

    const itemRows = placed.flatMap((o) => o.lines.map((l) => ({ orderId: o.id, qty: l.qty, p: packages.get(l.productId)! })));
    const items = await tx.$queryRaw<Prisma.OrderItemGetPayload<object>[]>`
      INSERT INTO "OrderItem" ("id", "orderId", "productId", "name", "image", "price", "qty", "dailyCredit", "durationDays")
      SELECT gen_random_uuid(), i.* FROM unnest(
        ${itemRows.map((r) => r.orderId)}::uuid[], ${itemRows.map((r) => r.p.id)}::uuid[], ${itemRows.map((r) => r.p.name)}::text[],
        ${itemRows.map((r) => r.p.image)}::text[], ${itemRows.map((r) => r.p.price.toFixed(2))}::numeric[], ${itemRows.map((r) => r.qty)}::int[],
        ${itemRows.map((r) => r.p.dailyCredit.toFixed(2))}::numeric[], ${itemRows.map((r) => r.p.durationDays)}::int[]) AS i
      RETURNING *`;
    const quotes = placed.map((o) => quoteFields(config, { id: o.id, paymentTag: tags.get(o.id)!, cents: o.cents, paymentDeadline }, price, now));
    await tx.$executeRaw`
      INSERT INTO "PaymentQuote" ("id", "orderId", "ethUsd", "usdAmount", "amountWei", "receivingAddress", "chainId", "createdAt", "expiresAt")
      SELECT gen_random_uuid(), q."orderId", q."ethUsd", q."usdAmount", q."amountWei", ${config.receivingAddress}, ${config.chainId}, ${now}, q."expiresAt"
      FROM unnest(${quotes.map((q) => q.orderId)}::uuid[], ${quotes.map((q) => q.ethUsd.toFixed())}::numeric[], ${quotes.map((q) => q.usdAmount.toFixed())}::numeric[],
                  ${quotes.map((q) => q.amountWei.toFixed())}::numeric[], ${quotes.map((q) => q.expiresAt.toISOString())}::timestamptz[]) AS q("orderId", "ethUsd", "usdAmount", "amountWei", "expiresAt")`;
    await writeReservations(tx, placed.map((o) => ({ orderId: o.id, lines: o.lines })));
    const itemsOf = (id: string) => items.filter((i) => i.orderId === id).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const byId = new Map(placed.map((o) => [o.id, { ...orders.get(o.id)!, items: itemsOf(o.id) }]));
    for (const o of placed) results[o.i] = byId.get(o.id)!;
  });
  return done();
}

/**
 * One api process's order desk: requests that arrive while a batch is being placed
 * wait and go together in the next one (group commit), so a drop of a popular package
 * takes its row lock and a commit once per batch instead of once per order. Alone, an
 * order is placed at once. The price and the head block are read once per batch. A
 * batch that fails as a whole because of its data (a fault one order meets) is placed
 * again one order at a time, so one request can never fail the others; one that fails
 * because a dependency is down (the database, Redis, the node, the price feed) fails
 * every order in it at once, as each would have failed alone.
 */
export function createOrderDesk(deps: PlaceOrderDeps, opts: { maxBatch?: number } = {}) {
  const maxBatch = opts.maxBatch ?? 100;
  type Waiting = OrderRequest & { resolve: (o: PlacedOrder) => void; reject: (err: unknown) => void };
  let waiting: Waiting[] = [];
  let running = false;
  const settle = (batch: Waiting[], results: (PlacedOrder | UserError)[]) => results.forEach((r, i) => (r instanceof Error ? batch[i]!.reject(r) : batch[i]!.resolve(r)));
  // A dependency that is down fails every order alike: answered at once, not tried one by one.
  const failsAll = (err: unknown) => err instanceof UserError || err instanceof PriceUnavailableError || isUnavailable(err) || isNodeFailure(err);
  async function placeBatch(batch: Waiting[]): Promise<void> {
    let at: PlacingAt;
    try {
      at = await placingAt(deps);
      settle(batch, await placeOrders(deps, batch, at));
    } catch (err) {
      if (batch.length === 1 || (failsAll(err) && !(err instanceof PlaceAlone))) {
        for (const w of batch) w.reject(err);
        return;
      }
      for (const w of batch) await placeOrders(deps, [w], at!).then((r) => settle([w], r), w.reject);
    }
  }
  async function drain(): Promise<void> {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(maxBatch);
      await placeBatch(batch);
    }
    running = false;
  }
  return {
    place(userId: string, input: OrderInput): Promise<PlacedOrder> {
      try {
        checkLines(input);
      } catch (err) {
        return Promise.reject(err);
      }
      return new Promise<PlacedOrder>((resolve, reject) => {
        waiting.push({ userId, input, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}
export type OrderDesk = ReturnType<typeof createOrderDesk>;

/**
 * The buyer reports a transaction hash. It never pays the order: it records the hash
 * for the worker, which attributes the transfer by its tag, and the report (which order
 * it was reported for, by whom: PaymentReport), so a transaction still in the mempool
 * holds that order whoever reported it first. A hash that already pays another order is
 * a conflict; an order takes only a few new hashes still waiting to be found or
 * confirmed. Returns the payment and its status (the caller queues a PENDING one).
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
    return p;
  };
  const report = async (p: { id: string; status: string }) => {
    await db.paymentReport.createMany({ data: [{ paymentId: p.id, orderId, userId: user.id }], skipDuplicates: true });
    return { paymentId: p.id, status: p.status };
  };
  const existing = await db.payment.findUnique({ where: { txHash } });
  if (existing) return report(check(existing));
  try {
    const created = await db.$transaction(async (tx) => {
      // New hashes of one order are counted under its row lock, so the cap holds under
      // concurrency; the same hash reported at once by several requests is one report.
      await tx.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
      const raced = await tx.payment.findUnique({ where: { txHash } });
      if (raced) return raced;
      const waiting = await tx.paymentReport.count({ where: { orderId, payment: { source: 'REPORTED', status: 'PENDING' } } });
      if (waiting >= config.maxPendingReportsPerOrder) {
        throw conflict(
          `This order already has ${waiting} reported payments waiting to be found or confirmed on chain. Wait until they are confirmed or rejected before reporting another.`,
        );
      }
      return tx.payment.create({ data: { txHash, source: 'REPORTED', status: 'PENDING', reports: { create: { orderId, userId: user.id } } } });
    });
    return report(check(created));
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      // A concurrent report of the same hash won the insert.
      return report(check(await db.payment.findUniqueOrThrow({ where: { txHash } })));
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
  // Through the partial index x_order_expirable (the orders that can still expire, never
  // the paid, expired and settled-late history): the statuses go in as literals, the
  // index's predicate, so the planner can use it.
  const payable = Prisma.raw(PAYABLE_STATUSES.map((s) => `'${s}'`).join(', '));
  const candidates = await db.$queryRaw<{ id: string }[]>`
    SELECT o."id" FROM "Order" o
    WHERE (o."status" IN (${payable}) OR (o."status" = 'LATE' AND o."stockReserved"))
      AND o."paymentDeadline" < ${now}
      AND NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p."orderId" = o."id" AND p."status" = 'PENDING' AND p."blockNumber" IS NOT NULL)
      AND (o."paymentDeadline" < ${graceEnd} OR NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p."orderId" = o."id" AND p."status" = 'PENDING'))
    ORDER BY o."paymentDeadline" LIMIT 500`;
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
      AND: [
        { OR: [{ paidAt: { lt: monitorCutoff } }, { paidAt: null }] },
        { OR: [{ deletedAt: { lt: monitorCutoff } }, { deletedAt: null }] },
        { OR: [{ cancelledAt: { lt: monitorCutoff } }, { cancelledAt: null }] },
      ],
      payments: waiting,
    },
    data: { paymentTag: null },
  });
  return { expired, released, tagsReleased: freed.count };
}

/**
 * The buyer cancels their own unpaid order: its stock goes back at once and it no longer
 * counts among their unpaid orders nor offers a quote. It stays as CANCELLED, keeping its
 * tag through the monitoring window (as an expired or deleted one does): a transfer the
 * buyer's wallet had already sent that arrives later is kept on it as LATE, for an admin
 * to refund, and never taken for another order that drew the same tag. What it received
 * already (UNDERPAID) waits the same way. Not while a transfer for it is being confirmed
 * (it may pay the order in a moment). Another buyer's order is not found.
 */
export async function cancelOrder(db: Db, input: { orderId: string; userId: string }, now = new Date()): Promise<Prisma.OrderGetPayload<object>> {
  return db.$transaction(async (tx) => {
    // Payments first, then the order: the order every payment path locks them in.
    await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "orderId" = ${input.orderId}::uuid ORDER BY "id" FOR UPDATE`;
    const rows = await tx.$queryRaw<{ status: OrderStatus; userId: string }[]>`SELECT "status", "userId" FROM "Order" WHERE "id" = ${input.orderId}::uuid FOR UPDATE`;
    const order = rows[0];
    if (!order || order.userId !== input.userId || order.status === 'DELETED') throw notFound('Order not found');
    if (order.status === 'CANCELLED') throw conflict('This order is cancelled already');
    if (order.status === 'PAID') throw conflict('A paid order cannot be cancelled');
    if (order.status === 'EXPIRED') throw conflict('This order expired: there is nothing left to cancel');
    if (order.status === 'LATE') throw conflict('A late payment for this order is waiting for the shop: it cannot be cancelled now');
    if (order.status === 'VERIFYING' || (await tx.payment.count({ where: { orderId: input.orderId, status: 'PENDING' } })) > 0) {
      throw conflict('A payment for this order is being confirmed on chain: it cannot be cancelled now');
    }
    await tx.payment.updateMany({ where: { orderId: input.orderId, status: 'COUNTED' }, data: { status: 'LATE', reason: ORDER_CANCELLED } });
    await releaseStock(tx, input.orderId);
    const updated = await tx.order.update({
      where: { id: input.orderId },
      data: { status: 'CANCELLED', cancelledAt: now, paidUsd: new Prisma.Decimal(0), overpaidUsd: new Prisma.Decimal(0) },
    });
    await emitEvent(tx, 'order.cancelled', `order:${input.orderId}`, orderEventData(updated), now);
    return updated;
  });
}

/**
 * An admin deletes an unpaid order (paid ones are financial records). Its stock is
 * released once; transfers already seen wait for an admin (UNRESOLVED); the order stays
 * as DELETED so its tag is kept through the monitoring window and a late transfer
 * carrying it is never taken for another order's.
 */
/**
 * Why an admin may not delete an order in this state, or null when they may: the one rule
 * the delete itself and the admin screens (which offer 'Delete Order' only when it applies) share.
 */
export function deleteBlockedReason(status: OrderStatus): string | null {
  if (status === 'PAID') return PAID_NOT_DELETABLE;
  if (status === 'DELETED') return 'This order was deleted already';
  return null;
}
export const PAID_NOT_DELETABLE = 'Paid orders cannot be deleted';

export async function deleteOrder(db: Db, orderId: string, now = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    // Locks in the order every payment path takes them: the order's payments first
    // (in id order), then the order, then (releasing stock) its packages.
    await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "orderId" = ${orderId}::uuid ORDER BY "id" FOR UPDATE`;
    const rows = await tx.$queryRaw<{ status: OrderStatus }[]>`SELECT "status" FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
    const status = rows[0]?.status;
    if (!status || status === 'DELETED') throw notFound('Order not found');
    const blocked = deleteBlockedReason(status);
    if (blocked) throw badRequest(blocked);
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
