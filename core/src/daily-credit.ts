import { Prisma, type Db } from './db.ts';
import { postEntries } from './ledger.ts';

const DAY = 24 * 3600_000;

/** UTC midnights strictly after `from` and at or before `to`. */
export function creditDays(from: Date, to: Date): Date[] {
  const days: Date[] = [];
  let d = Math.floor(from.getTime() / DAY) * DAY + DAY;
  for (; d <= to.getTime(); d += DAY) days.push(new Date(d));
  return days;
}

/**
 * Daily package credit. Every paid order credits, for each item, dailyCredit x qty for
 * every UTC midnight passed since it was paid, up to now and never past the item's own
 * term (paidAt + durationDays). One ledger entry per item per day, keyed by the item
 * and the date: a rerun credits nothing twice and a missed day is caught up.
 */
export async function creditDaily(db: Db, now = new Date()): Promise<{ entries: number; amount: Prisma.Decimal; failed: { orderId: string; error: string }[] }> {
  let entries = 0;
  // One order that cannot be credited (a fault) does not hold back the others.
  const failed: { orderId: string; error: string }[] = [];
  let amount = new Prisma.Decimal(0);
  let cursor: string | undefined;
  for (;;) {
    const orders = await db.order.findMany({
      where: { status: 'PAID', paidAt: { not: null, lt: now } },
      include: { items: true },
      orderBy: { id: 'asc' },
      take: 200,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    if (orders.length === 0) break;
    for (const order of orders) {
      try {
        const credited = await creditOrder(db, order, now);
        entries += credited.entries;
        amount = amount.plus(credited.amount);
      } catch (err) {
        failed.push({ orderId: order.id, error: err instanceof Error ? err.message : String(err) });
      }
    }
    cursor = orders[orders.length - 1]?.id;
  }
  return { entries, amount, failed };
}

type PaidOrder = { id: string; userId: string; paidAt: Date | null; items: { id: string; qty: number; dailyCredit: Prisma.Decimal; durationDays: number }[] };

async function creditOrder(db: Db, order: PaidOrder, now: Date): Promise<{ entries: number; amount: Prisma.Decimal }> {
  let entries = 0;
  let amount = new Prisma.Decimal(0);
  const paidAt = order.paidAt as Date;
  for (const item of order.items) {
    const perDay = item.dailyCredit.times(item.qty);
    if (perDay.lte(0)) continue;
    const end = new Date(Math.min(now.getTime(), paidAt.getTime() + item.durationDays * DAY));
    const days = creditDays(paidAt, end);
    if (days.length === 0) continue;
    const keys = days.map((d) => `daily:${item.id}:${d.toISOString().slice(0, 10)}`);
    const done = new Set(
      (await db.ledgerEntry.findMany({ where: { idempotencyKey: { in: keys } }, select: { idempotencyKey: true } })).map((e) => e.idempotencyKey),
    );
    const todo = keys.filter((k) => !done.has(k));
    if (todo.length === 0) continue;
    await db.$transaction(async (tx) => {
      for (const key of todo) {
        const posted = await postEntries(tx, [
          { userId: order.userId, account: 'ACTIVE', amount: perDay, kind: 'DAILY_CREDIT', reference: `order:${order.id}`, idempotencyKey: key },
        ]);
        if (posted) {
          entries++;
          amount = amount.plus(perDay);
        }
      }
    });
  }
  return { entries, amount };
}
