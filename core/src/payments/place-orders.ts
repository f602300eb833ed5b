import { randomInt, randomUUID } from 'node:crypto';
import type { PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import { chainHead } from '../chain/head.ts';
import { centsToString, toCents } from '../contract/money.ts';
import type { Db, Prisma } from '../infra/db.ts';
import { badRequest, conflict, unavailable, UserError } from '../infra/errors.ts';
import type { Tx } from '../books/ledger.ts';
import type { Redis } from '../infra/redis.ts';
import type { FactoryTrust } from '../deposits/factory-trust.ts';
import { MAX_TAG } from '../rails/eth/amounts.ts';
import type { EthUsd, PriceSource } from '../rails/eth/price.ts';
import { EXPIRABLE_STATUSES, PAYABLE_STATUSES } from './order-states.ts';
import { priceOrder } from './pricing.ts';
import { quoteFields } from './quotes.ts';
import { lockPackages, shortageOf, writeReservations, type LockedPackage } from './stock.ts';

export type PlaceOrderDeps = { config: AppConfig; db: Db; redis: Redis; chain: PublicClient; prices: PriceSource; depositFactory: Pick<FactoryTrust, 'depositAddressOf'> };
export type OrderLine = { _id: string; qty: number };
export type OrderInput = { orderedItems: OrderLine[]; itemsPrice: string; totalPrice: string };
export type OrderRequest = { userId: string; input: OrderInput };
export type PlacedOrder = Prisma.OrderGetPayload<{ include: { items: true } }>;
/** What a batch is placed at: the price of its quotes and the head block (placedAtBlock), read once. */
export type PlacingAt = { price: EthUsd; head: bigint };

/** Thrown when some orders of a batch found no free tag: the others were judged with them, so each is placed again alone. */
export class PlaceAlone extends Error {}

/** Below this many, a buyer may hold all of a package's stock in unpaid orders. */
const STOCK_SHARE_FLOOR = 5;
/** Rounds of fresh tags an order gets when the one it drew is held by another order. */
const TAG_ROUNDS = 16;

/**
 * How much of a package one buyer's unpaid orders may hold: MAX_UNPAID_STOCK_SHARE_PERCENT
 * of what is in stock plus what they hold already, and at least STOCK_SHARE_FLOOR (a
 * package with little stock can still be bought up at once).
 */
function stockShareCap(config: Pick<AppConfig, 'maxUnpaidStockSharePercent'>, stock: number): number {
  return Math.max(STOCK_SHARE_FLOOR, Math.floor((stock * config.maxUnpaidStockSharePercent) / 100));
}

/** The price and the head block orders are placed at (Redis, the node only when Redis has none fresh). */
export async function placingAt(deps: PlaceOrderDeps): Promise<PlacingAt> {
  const price = await deps.prices.current();
  const head = await chainHead(deps).catch(() => {
    throw unavailable('The Ethereum network is unreachable right now; please try again shortly');
  });
  return { price, head };
}

/** What can be refused without the database: no lines, a package named twice. */
export function checkLines(input: OrderInput): void {
  if (input.orderedItems.length === 0) throw badRequest('No order items');
  const ids = input.orderedItems.map((l) => l._id.toLowerCase());
  if (new Set(ids).size !== ids.length) throw badRequest('Each package may appear only once in an order');
}

type Line = { productId: string; qty: number };
const linesOf = (input: OrderInput): Line[] => input.orderedItems.map((l) => ({ productId: l._id.toLowerCase(), qty: l.qty }));

/** What the batch's buyers hold now, counted under their row locks, and updated as the batch accepts orders. */
type Holdings = { unpaid: Map<string, number>; tagsHeld: Map<string, number>; held: Map<string, number> };
type Accepted = { i: number; id: string; userId: string; itemsCents: bigint; totalCents: bigint; lines: Line[] };
type Outcome = PlacedOrder | UserError;

/**
 * Places orders, many in one transaction (a flash sale's requests arrive together:
 * see createOrderDesk), each one judged on its own, in the order given, in these steps:
 * 1. screen: lines present and each package once (no database);
 * 2. lock the packages, then the buyers (the order every path that locks both takes),
 *    and read what the buyers' unpaid orders hold;
 * 3. judge each order: priced from the database (priceOrder; a client total that differs
 *    is a 409), then its stock (against what the orders before it in the batch left), at
 *    most MAX_OPEN_ORDERS_PER_USER unpaid orders and MAX_HELD_TAGS_PER_USER tags per buyer,
 *    and a share of each package;
 * 4. give each a tag no other live order holds (the partial unique index decides; a
 *    taken one is drawn again), with `placedAtBlock` from the shared head (chain/head.ts),
 *    and its deposit address while the deposit factory is trusted (deposits/factory-trust.ts);
 * 5. write the items, the first quotes and the stock reservations.
 * Returns, per request, the order with its items or the UserError refusing it.
 */
export async function placeOrders(deps: PlaceOrderDeps, requests: OrderRequest[], at?: PlacingAt): Promise<Outcome[]> {
  const { db, config } = deps;
  const results: (Outcome | null)[] = requests.map(() => null);
  const done = () => results.map((r) => r ?? new UserError(503, 'The order could not be placed; please try again'));
  const open = screen(requests, results);
  if (open.length === 0) return done();
  const { price, head } = at ?? (await placingAt(deps));
  await db.$transaction(async (tx) => {
    const packages = await lockPackages(tx, open.flatMap((i) => linesOf(requests[i]!.input).map((l) => l.productId)));
    const holdings = await lockBuyers(tx, [...new Set(open.map((i) => requests[i]!.userId.toLowerCase()))].sort(), [...packages.keys()]);
    const accepted: Accepted[] = [];
    for (const i of open) {
      const judged = judge(config, i, requests[i]!, packages, holdings);
      if (judged instanceof UserError) results[i] = judged;
      else accepted.push(judged);
    }
    if (accepted.length === 0) return;
    const now = new Date();
    const paymentDeadline = new Date(now.getTime() + config.paymentWindowMinutes * 60_000);
    const tagged = await insertWithTags(tx, accepted, { head, now, paymentDeadline, depositOf: deps.depositFactory.depositAddressOf });
    if (!tagged) {
      // Judged with the others of the batch, it held stock and places the others were refused for.
      if (accepted.length > 1) throw new PlaceAlone();
      results[accepted[0]!.i] = new UserError(503, 'Too many open orders right now; please try again shortly');
      return;
    }
    const items = await writeItems(tx, accepted, packages);
    const quotes = accepted.map((o) => quoteFields(config, { id: o.id, paymentTag: tagged.get(o.id)!.paymentTag!, cents: o.totalCents, paymentDeadline }, 'ETH', price, now));
    await writeQuotes(tx, config, quotes, now);
    await writeReservations(tx, accepted.map((o) => ({ orderId: o.id, lines: o.lines })));
    const itemsOf = (id: string) => items.filter((i) => i.orderId === id).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const o of accepted) results[o.i] = { ...tagged.get(o.id)!, items: itemsOf(o.id) };
  });
  return done();
}

/** Step 1: the requests worth a transaction (the others get their refusal now). */
function screen(requests: OrderRequest[], results: (Outcome | null)[]): number[] {
  const open: number[] = [];
  requests.forEach((r, i) => {
    try {
      checkLines(r.input);
      open.push(i);
    } catch (err) {
      results[i] = err as UserError;
    }
  });
  return open;
}

/**
 * Step 2: the buyers' row locks, then what they hold: unpaid orders, tags held by orders
 * not paid (open, or expired, cancelled or deleted and still in their monitoring window:
 * their tag is not free yet), and what their unpaid orders hold of these packages. A LATE
 * order counts while it holds its stock: a buyer could otherwise send a few cents with a
 * lapsed quote's tag to take an order of their own out of both counts.
 */
async function lockBuyers(tx: Tx, userIds: string[], productIds: string[]): Promise<Holdings> {
  await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ANY(${userIds}::uuid[]) ORDER BY "id" FOR NO KEY UPDATE`;
  // One statement over the buyers' live orders only (x_order_buyer_live: not paid, and a
  // tag or stock still held), never their finished history: a per-buyer row of counts
  // (productId null), then a row per buyer and package of the stock their unpaid orders hold.
  const rows = await tx.$queryRaw<{ userId: string; productId: string | null; n: number; tags: number; qty: number }[]>`
    WITH live AS (
      SELECT "id", "userId", "status", "paymentTag", "stockReserved" FROM "Order"
      WHERE "userId" = ANY(${userIds}::uuid[]) AND "status" <> 'PAID' AND ("paymentTag" IS NOT NULL OR "stockReserved"))
    SELECT "userId", NULL::uuid AS "productId",
           (count(*) FILTER (WHERE "paymentTag" IS NOT NULL AND ("status"::text = ANY(${[...PAYABLE_STATUSES]}::text[]) OR ("status" = 'LATE' AND "stockReserved"))))::int AS "n",
           (count(*) FILTER (WHERE "paymentTag" IS NOT NULL))::int AS "tags", 0 AS "qty"
    FROM live GROUP BY "userId"
    UNION ALL
    SELECT o."userId", i."productId", 0, 0, SUM(i."qty")::int
    FROM live o JOIN "OrderItem" i ON i."orderId" = o."id"
    WHERE i."productId" = ANY(${productIds}::uuid[]) AND o."status"::text = ANY(${[...EXPIRABLE_STATUSES]}::text[]) AND o."stockReserved"
    GROUP BY 1, 2`;
  const counts = rows.filter((r) => r.productId === null);
  const holding = rows.filter((r) => r.productId !== null);
  return {
    unpaid: new Map(counts.map((c) => [c.userId, c.n])),
    tagsHeld: new Map(counts.map((c) => [c.userId, c.tags])),
    held: new Map(holding.map((h) => [`${h.userId}/${h.productId}`, h.qty])),
  };
}

/**
 * Step 3: one order, on its own: the packages exist and are on sale, its price (priceOrder)
 * matches what the buyer saw, and the limits hold. Accepted, it takes its stock and its
 * places in the counts, so the next order of the batch is judged against what is left.
 */
function judge(config: AppConfig, i: number, request: OrderRequest, packages: Map<string, LockedPackage>, h: Holdings): Accepted | UserError {
  const { input } = request;
  const userId = request.userId.toLowerCase();
  const lines = linesOf(input);
  const missing = lines.find((l) => !packages.get(l.productId) || packages.get(l.productId)!.deletedAt);
  if (missing) return badRequest(`Package not found: ${input.orderedItems.find((l) => l._id.toLowerCase() === missing.productId)!._id}`);
  // A draft (never published, or taken off sale) cannot be ordered, whatever a cart still holds.
  const draft = lines.find((l) => !packages.get(l.productId)!.publishedAt);
  if (draft) return badRequest(`This package is not on sale: ${input.orderedItems.find((l) => l._id.toLowerCase() === draft.productId)!._id}`);
  const price = priceOrder(lines, (id) => toCents(packages.get(id)!.price.toFixed(2)));
  if (price.totalCents === 0n) return conflict('This order comes to $0.00: a package without a price cannot be ordered');
  if (toCents(input.totalPrice) !== price.totalCents || toCents(input.itemsPrice) !== price.itemsCents) {
    return conflict(`Prices have changed: the total is now $${centsToString(price.totalCents)}. Please review your cart.`);
  }
  const short = shortageOf(lines, packages, { forNewOrder: true });
  if (short) return conflict(`Not enough stock for ${short.name}: ${short.left} left`);
  // One account may hold only a few unpaid orders (each holds stock and a tag), ...
  const openOrders = h.unpaid.get(userId) ?? 0;
  if (openOrders + 1 > config.maxOpenOrdersPerUser) {
    return conflict(`You already have ${openOrders} unpaid orders. Pay for one, cancel one, or wait until they expire, before placing another.`);
  }
  // ... only so many tags, cancelling or abandoning orders one after another ...
  const tags = h.tagsHeld.get(userId) ?? 0;
  if (tags + 1 > config.maxHeldTagsPerUser) {
    const hours = config.latePaymentHours;
    return conflict(`You have ${tags} unpaid orders from the last ${hours} hours (cancelled, expired or open): pay for one, or try again once the oldest is ${hours} hours old.`);
  }
  // ... and only a share of each package's stock until it pays.
  const hog = lines
    .map((l) => {
      const p = packages.get(l.productId)!;
      const mine = h.held.get(`${userId}/${l.productId}`) ?? 0;
      return { p, mine, cap: stockShareCap(config, p.countInStock + mine), qty: l.qty };
    })
    .find((x) => x.mine + x.qty > x.cap);
  if (hog) {
    return conflict(`At most ${hog.cap} of ${hog.p.name} can wait in one buyer's unpaid orders${hog.mine ? ` (yours hold ${hog.mine})` : ''}: order fewer, or pay for an open order first.`);
  }
  h.unpaid.set(userId, openOrders + 1);
  h.tagsHeld.set(userId, tags + 1);
  for (const l of lines) {
    packages.get(l.productId)!.countInStock -= l.qty;
    h.held.set(`${userId}/${l.productId}`, (h.held.get(`${userId}/${l.productId}`) ?? 0) + l.qty);
  }
  return { i, id: randomUUID(), userId: request.userId, itemsCents: price.itemsCents, totalCents: price.totalCents, lines };
}

/**
 * Step 4: the orders' rows, each with a tag drawn at random; an order whose tag another
 * live order holds draws again. Null when some found no free tag in TAG_ROUNDS draws.
 */
async function insertWithTags(
  tx: Tx,
  accepted: Accepted[],
  at: { head: bigint; now: Date; paymentDeadline: Date; depositOf: (orderId: string) => string | null },
): Promise<Map<string, Prisma.OrderGetPayload<object>> | null> {
  // Each order's own deposit address, known from its id alone: only while the shop's deposit
  // factory is configured and its code checked (deposits/factory-trust.ts); null otherwise.
  const { depositOf } = at;
  const orders = new Map<string, Prisma.OrderGetPayload<object>>();
  let pending = accepted;
  for (let round = 0; pending.length > 0 && round < TAG_ROUNDS; round++) {
    const tags = pending.map(() => randomInt(1, MAX_TAG + 1));
    const inserted = await tx.$queryRaw<Prisma.OrderGetPayload<object>[]>`
      INSERT INTO "Order" ("id", "userId", "itemsPrice", "totalPrice", "paymentTag", "depositAddress", "placedAtBlock", "createdAt", "updatedAt", "paymentDeadline", "stockReserved")
      SELECT o."id", o."userId", o."items", o."total", o."tag", o."deposit", ${at.head.toString()}::bigint, ${at.now}, ${at.now}, ${at.paymentDeadline}, true
      FROM unnest(${pending.map((o) => o.id)}::uuid[], ${pending.map((o) => o.userId)}::uuid[],
                  ${pending.map((o) => centsToString(o.itemsCents))}::numeric[], ${pending.map((o) => centsToString(o.totalCents))}::numeric[],
                  ${tags}::int[], ${pending.map((o) => depositOf(o.id))}::text[]) AS o("id", "userId", "items", "total", "tag", "deposit")
      ON CONFLICT ("paymentTag") WHERE "paymentTag" IS NOT NULL DO NOTHING
      RETURNING *`;
    for (const row of inserted) orders.set(row.id, row);
    pending = pending.filter((o) => !orders.has(o.id));
  }
  return pending.length > 0 ? null : orders;
}

/** Step 5: each line's snapshot of its package (name, image, price, daily credit, term). */
async function writeItems(tx: Tx, accepted: Accepted[], packages: Map<string, LockedPackage>) {
  const rows = accepted.flatMap((o) => o.lines.map((l) => ({ orderId: o.id, qty: l.qty, p: packages.get(l.productId)! })));
  return tx.$queryRaw<Prisma.OrderItemGetPayload<object>[]>`
    INSERT INTO "OrderItem" ("id", "orderId", "productId", "name", "image", "price", "qty", "dailyCredit", "durationDays")
    SELECT gen_random_uuid(), i.* FROM unnest(
      ${rows.map((r) => r.orderId)}::uuid[], ${rows.map((r) => r.p.id)}::uuid[], ${rows.map((r) => r.p.name)}::text[],
      ${rows.map((r) => r.p.image)}::text[], ${rows.map((r) => r.p.price.toFixed(2))}::numeric[], ${rows.map((r) => r.qty)}::int[],
      ${rows.map((r) => r.p.dailyCredit.toFixed(2))}::numeric[], ${rows.map((r) => r.p.durationDays)}::int[]) AS i
    RETURNING *`;
}

/** Step 5: the first quote of each order, in one statement. */
async function writeQuotes(tx: Tx, config: AppConfig, quotes: ReturnType<typeof quoteFields>[], now: Date): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO "PaymentQuote" ("id", "orderId", "unitUsd", "usdAmount", "asset", "amount", "receivingAddress", "chainId", "createdAt", "expiresAt")
    SELECT gen_random_uuid(), q."orderId", q."unitUsd", q."usdAmount", q."asset"::"Asset", q."amount", ${config.receivingAddress}, ${config.chainId}, ${now}, q."expiresAt"
    FROM unnest(${quotes.map((q) => q.orderId)}::uuid[], ${quotes.map((q) => q.unitUsd.toFixed())}::numeric[], ${quotes.map((q) => q.usdAmount.toFixed())}::numeric[],
                ${quotes.map((q) => q.asset)}::text[], ${quotes.map((q) => q.amount.toFixed())}::numeric[], ${quotes.map((q) => q.expiresAt.toISOString())}::timestamptz[]) AS q("orderId", "unitUsd", "usdAmount", "asset", "amount", "expiresAt")`;
}
