import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import { postCredits, type LedgerEntryInput } from './ledger.ts';
import type { Redis } from '../infra/redis.ts';

const DAY = 24 * 3600_000;
/** Items read a page at a time (keyset on creditEndsAt, id). */
const PAGE = 500;
/** Day keys looked up in the ledger per query. */
const KEYS_PER_LOOKUP = 5_000;
/** The window a run given no `since` reads (DAILY_CREDIT_CATCH_UP_DAYS's default). */
const DEFAULT_CATCH_UP_DAYS = 7;

/** UTC midnights strictly after `from` and at or before `to`. */
export function creditDays(from: Date, to: Date): Date[] {
  const days: Date[] = [];
  let d = Math.floor(from.getTime() / DAY) * DAY + DAY;
  for (; d <= to.getTime(); d += DAY) days.push(new Date(d));
  return days;
}

const startOfDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY) * DAY);

export type DailyCreditResult = {
  entries: number;
  amount: Prisma.Decimal;
  failed: { orderId: string; error: string }[];
  /** Items read (still in their term on or after `since`), and day keys looked up for them. */
  items: number;
  keys: number;
};

type TermItem = { id: string; orderId: string; userId: string; paidAt: Date; qty: number; dailyCredit: Prisma.Decimal; durationDays: number; creditEndsAt: Date };

/**
 * Daily package credit. Every item of a paid order credits dailyCredit x qty for every
 * UTC midnight passed since it was paid, up to now and never past its own term (paidAt
 * + durationDays). One ledger entry per item per day, keyed by the item and the date: a
 * rerun credits nothing twice and a missed day is caught up.
 *
 * Only the days from `since` (the start of the earliest day still to credit) are looked
 * at, so a run reads the items whose term had not ended by then (OrderItem.creditEndsAt,
 * set while the order is PAID, indexed) and not two years of finished ones: its cost
 * follows the packages still running. The caller chooses `since` (runDailyCredit: the
 * last completed run or the catch-up window, whichever is earlier).
 */
export async function creditDaily(db: Db, now = new Date(), opts: { since?: Date } = {}): Promise<DailyCreditResult> {
  const from = startOfDay(opts.since ?? new Date(now.getTime() - DEFAULT_CATCH_UP_DAYS * DAY));
  const result: DailyCreditResult = { entries: 0, amount: new Prisma.Decimal(0), failed: [], items: 0, keys: 0 };
  // One order that cannot be credited (a fault) does not hold back the others.
  const failedOrders = new Map<string, string>();
  let after: { creditEndsAt: Date; id: string } | null = null;
  for (;;) {
    const keyset = after
      ? Prisma.sql`AND i."creditEndsAt" >= ${after.creditEndsAt} AND (i."creditEndsAt", i."id") > (${after.creditEndsAt}::timestamptz, ${after.id}::uuid)`
      : Prisma.empty;
    const items: TermItem[] = await db.$queryRaw<TermItem[]>`
      SELECT i."id", i."orderId", o."userId", o."paidAt", i."qty", i."dailyCredit", i."durationDays", i."creditEndsAt"
      FROM "OrderItem" i JOIN "Order" o ON o."id" = i."orderId"
      WHERE i."creditEndsAt" >= ${from} ${keyset}
        AND o."status" = 'PAID' AND o."paidAt" < ${now} AND i."dailyCredit" > 0
      ORDER BY i."creditEndsAt", i."id"
      LIMIT ${PAGE}`;
    if (items.length === 0) break;
    result.items += items.length;
    await creditPage(db, items, from, now, result, failedOrders);
    const last = items[items.length - 1] as TermItem;
    after = { creditEndsAt: last.creditEndsAt, id: last.id };
    if (items.length < PAGE) break;
  }
  result.failed = [...failedOrders].map(([orderId, error]) => ({ orderId, error }));
  return result;
}

/** The day keys of a page of items (from `from`, within each term, up to now), looked up together, then posted together (item by item if that fails). */
async function creditPage(db: Db, items: TermItem[], from: Date, now: Date, result: DailyCreditResult, failedOrders: Map<string, string>): Promise<void> {
  const keysOf = new Map<string, string[]>();
  for (const item of items) {
    const end = new Date(Math.min(now.getTime(), item.paidAt.getTime() + item.durationDays * DAY));
    // Midnights after payment, and from `from` on (`from` itself included).
    const start = new Date(Math.max(item.paidAt.getTime(), from.getTime() - 1));
    const keys = creditDays(start, end).map((d) => `daily:${item.id}:${d.toISOString().slice(0, 10)}`);
    if (keys.length > 0) keysOf.set(item.id, keys);
  }
  const all = [...keysOf.values()].flat();
  result.keys += all.length;
  const done = new Set<string>();
  for (let i = 0; i < all.length; i += KEYS_PER_LOOKUP) {
    const found = await db.ledgerEntry.findMany({ where: { idempotencyKey: { in: all.slice(i, i + KEYS_PER_LOOKUP) } }, select: { idempotencyKey: true } });
    for (const e of found) done.add(e.idempotencyKey);
  }
  const todo = new Map<TermItem, LedgerEntryInput[]>();
  for (const item of items) {
    const keys = (keysOf.get(item.id) ?? []).filter((k) => !done.has(k));
    if (keys.length === 0 || failedOrders.has(item.orderId)) continue;
    const perDay = item.dailyCredit.times(item.qty);
    todo.set(item, keys.map((key) => ({ userId: item.userId, account: 'ACTIVE', amount: perDay, kind: 'DAILY_CREDIT', reference: `order:${item.orderId}`, idempotencyKey: key })));
  }
  if (todo.size === 0) return;
  const count = (posted: { posted: number; amount: Prisma.Decimal }) => {
    result.entries += posted.posted;
    result.amount = result.amount.plus(posted.amount);
  };
  // The page in one transaction; if it fails, item by item, so one order that cannot be
  // credited (a fault) does not hold back the others.
  try {
    count(await postStillPaid(db, [...todo]));
    return;
  } catch {
    // Retried below, one item at a time.
  }
  for (const [item, entries] of todo) {
    if (failedOrders.has(item.orderId)) continue;
    try {
      count(await postStillPaid(db, [[item, entries]]));
    } catch (err) {
      failedOrders.set(item.orderId, err instanceof Error ? err.message : String(err));
    }
  }
}

/**
 * Posts the credit of the items whose order is still PAID. The page was read outside this
 * transaction: an order unpaid since (a reorganisation took its transfer away, which
 * clears its term in the same transaction) earns nothing for it. The orders are locked
 * for share in id order before postCredits locks the users, as settlement locks an order
 * before its buyer's and referrer's balances.
 */
function postStillPaid(db: Db, todo: [TermItem, LedgerEntryInput[]][]): Promise<{ posted: number; amount: Prisma.Decimal }> {
  return db.$transaction(async (tx) => {
    const orderIds = [...new Set(todo.map(([item]) => item.orderId))].sort();
    const paid = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id"::text AS id FROM "Order" WHERE "id" = ANY(${orderIds}::uuid[]) AND "status" = 'PAID' ORDER BY "id" FOR SHARE`;
    const stillPaid = new Set(paid.map((o) => o.id));
    return postCredits(tx, todo.filter(([item]) => stillPaid.has(item.orderId)).flatMap(([, entries]) => entries));
  });
}

/**
 * Where the worker remembers the last daily credit run that completed (every item
 * credited up to its time); outside the daily-credit queue's own keys.
 */
const lastRunKey = (config: Pick<AppConfig, 'queuePrefix'>) => `${config.queuePrefix}:credit:completed-through`;

/**
 * The daily credit job: credits up to `now` from the earlier of the last completed run
 * (kept in Redis) and the catch-up window (DAILY_CREDIT_CATCH_UP_DAYS). A run that
 * completes is remembered; one where some order failed is not, so the next run reaches
 * back as far again. A job stopped longer than the window is caught up from its last
 * completed run; when there is no record of one (a new shop, or Redis lost its data)
 * the run reads every item of a paid order once, so no owed day is ever skipped.
 */
export async function runDailyCredit(
  runtime: { db: Db; redis: Redis; config: Pick<AppConfig, 'queuePrefix' | 'dailyCreditCatchUpDays'> },
  now = new Date(),
): Promise<DailyCreditResult & { since: Date }> {
  const { db, redis, config } = runtime;
  const windowStart = new Date(startOfDay(now).getTime() - config.dailyCreditCatchUpDays * DAY);
  const stored = Number(await redis.get(lastRunKey(config)));
  const since = !(stored > 0) ? new Date(0) : stored < windowStart.getTime() ? startOfDay(new Date(stored)) : windowStart;
  const result = await creditDaily(db, now, { since });
  if (result.failed.length === 0) await redis.set(lastRunKey(config), String(now.getTime()));
  return { ...result, since };
}
