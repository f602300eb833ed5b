import { Prisma, RETURNABLE_CASHOUT_STATUSES, type Db } from '@shop/core';
import { BALANCE_CURRENCY, type MyCashoutJson, type StatementEntryJson } from '@shop/core/contract';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';

/**
 * A user's statement: their ledger entries, newest first, each with what it came from.
 * Reads one page from LedgerEntry(userId, createdAt, id), then the orders and cashouts
 * that page names (at most one page of each), so a page costs the same at 20 entries as
 * at 20,000.
 */
export function statementPage(db: Db, userId: string, page: PageQuery) {
  return db.ledgerEntry.findMany({
    where: { userId, ...(keysetWhere('createdAt', 'desc', page.after) as Prisma.LedgerEntryWhereInput) },
    select: { id: true, createdAt: true, kind: true, account: true, amount: true, orderId: true, cashoutId: true, reference: true },
    orderBy: keysetOrder('createdAt', 'desc') as Prisma.LedgerEntryOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}
type StatementRow = Awaited<ReturnType<typeof statementPage>>[number];

const cashoutSelect = { id: true, userId: true, status: true, amountUsd: true, wallet: true, payoutTxHash: true, paidAt: true, holdUntil: true, createdAt: true } satisfies Prisma.CashoutRequestSelect;
type CashoutRow = Prisma.CashoutRequestGetPayload<{ select: typeof cashoutSelect }>;

function cashoutJson(c: CashoutRow): MyCashoutJson {
  return {
    _id: c.id,
    status: c.status,
    amountUsd: c.amountUsd.toFixed(2),
    wallet: c.wallet,
    payoutTxHash: c.payoutTxHash,
    paidAt: c.paidAt?.toISOString() ?? null,
    holdUntil: c.holdUntil?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
  };
}

const REFERRAL_KINDS = new Set(['REFERRAL_REWARD', 'REFERRAL_REVERSAL']);

export async function statementJson(db: Db, userId: string, rows: StatementRow[]): Promise<StatementEntryJson[]> {
  const orderIds = [...new Set(rows.flatMap((r) => (r.orderId ? [r.orderId] : [])))];
  const cashoutIds = [...new Set(rows.flatMap((r) => (r.cashoutId ? [r.cashoutId] : [])))];
  const [orders, cashouts] = await Promise.all([
    orderIds.length ? db.order.findMany({ where: { id: { in: orderIds } }, select: { id: true, userId: true, user: { select: { name: true } } } }) : [],
    cashoutIds.length ? db.cashoutRequest.findMany({ where: { id: { in: cashoutIds }, userId }, select: cashoutSelect }) : [],
  ]);
  const orderById = new Map(orders.map((o) => [o.id, o]));
  const cashoutById = new Map(cashouts.map((c) => [c.id, c]));
  return rows.map((r) => {
    const entry: StatementEntryJson = {
      _id: r.id,
      createdAt: r.createdAt.toISOString(),
      kind: r.kind,
      account: r.account,
      amount: r.amount.toFixed(2),
      currency: BALANCE_CURRENCY,
    };
    const order = r.orderId ? orderById.get(r.orderId) : undefined;
    // A referral's order is the referred buyer's: its referrer learns the name, not the order.
    if (order && REFERRAL_KINDS.has(r.kind)) entry.from = order.user.name;
    else if (order && order.userId === userId) entry.order = { _id: order.id };
    const cashout = r.cashoutId ? cashoutById.get(r.cashoutId) : undefined;
    if (cashout) {
      entry.cashout = cashoutJson(cashout);
      if (r.amount.gt(0)) entry.cashoutReturned = true;
    }
    return entry;
  });
}

/** How many open cashouts the profile lists (a user has a few at most; the rest are in the statement). */
export const OPEN_CASHOUTS_SHOWN = 20;

/** The user's cashouts still waiting to be paid (held for a new wallet among them), oldest first. */
export async function openCashouts(db: Db, userId: string): Promise<MyCashoutJson[]> {
  const rows = await db.cashoutRequest.findMany({
    where: { userId, status: { in: [...RETURNABLE_CASHOUT_STATUSES] } },
    select: cashoutSelect,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: OPEN_CASHOUTS_SHOWN,
  });
  return rows.map(cashoutJson);
}
