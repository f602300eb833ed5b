import { cashoutsCounted, cashoutsOverWindows, notFound, OPEN_CASHOUT_STATUSES, payoutApprovalStates, Prisma, type AppConfig, type Db } from '@shop/core';
import { usdNumber, usdToEth, type CashoutStatus, type CashoutJson, type PayoutApprovalJson } from '@shop/core/contract';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';
import { checkJson, latestCheck } from '../payouts/service.ts';

/** One cashout request as `viewerId` (an admin) sees it; 404 when there is none. */
export async function cashoutJson(db: Db, config: AppConfig, id: string, viewerId: string): Promise<CashoutJson> {
  const c = await db.cashoutRequest.findUnique({ where: { id }, include });
  if (!c) throw notFound('Cashout request not found');
  return (await rowsJson(db, config, [c], viewerId))[0] as CashoutJson;
}

/**
 * A page of cashouts with their payout holds and approval states: whether each needs a
 * second admin is judged for `viewerId`, the admin who would pay it (its user's cashouts
 * of 24 hours, and for an open one what this admin and its packages paid out in 24 hours).
 */
export async function rowsJson(db: Db, config: AppConfig, rows: Awaited<ReturnType<typeof listRows>>, viewerId: string): Promise<CashoutJson[]> {
  const open = rows.filter((r) => (OPEN_CASHOUT_STATUSES as readonly string[]).includes(r.status));
  const [holds, counted, over] = await Promise.all([holdsOf(db, rows.map((r) => r.id)), cashoutsCounted(db, rows.map((r) => r.id)), cashoutsOverWindows(db, config, viewerId, open)]);
  const approvals = await payoutApprovalStates(db, config, rows.map((r) => ({ id: r.id, worth: counted.get(r.id) ?? r.amountUsd, over: over.has(r.id) })));
  return rows.map((r) => toJson(r, holds, approvals));
}

/** Cashouts held by a replaced payout sent through a contract: the hash, by cashout. */
async function holdsOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = await db.payoutCheck.findMany({ where: { holds: true, cashoutId: { in: ids } }, select: { cashoutId: true, txHash: true } });
  return new Map(rows.map((r) => [r.cashoutId as string, r.txHash]));
}

function toJson(c: Awaited<ReturnType<typeof listRows>>[number], holds: Map<string, string>, approvals: Map<string, PayoutApprovalJson>): CashoutJson {
  const amountEth = c.ethUsd ? (usdToEth(c.amountUsd.toFixed(2), c.ethUsd.toFixed(8)) ?? null) : null;
  return {
    _id: c.id,
    user: { _id: c.user.id, name: c.user.name, email: c.user.email },
    wallet: c.wallet,
    amountUsd: usdNumber(c.amountUsd),
    ethUsd: c.ethUsd?.toFixed(8) ?? null,
    amountEth,
    status: c.status,
    holdUntil: c.holdUntil?.toISOString() ?? null,
    payoutTxHash: c.payoutTxHash,
    check: checkJson(c.checks[0]),
    heldBy: holds.get(c.id) ?? null,
    approval: approvals.get(c.id) ?? { needed: false, current: null },
    paidAt: c.paidAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

const include = { user: { select: { id: true, name: true, email: true } }, checks: latestCheck } as const;

/**
 * One page of cashout requests, optionally by status (index CashoutRequest(status,
 * createdAt, id)). Newest first, except the requests still waiting to be paid: those
 * oldest first, the one waiting longest on top however many came after it (a payout is
 * promised within 24 hours).
 */
export function listRows(db: Db, status: CashoutStatus[] | undefined, page: PageQuery) {
  const dir = status && status.every((s) => (OPEN_CASHOUT_STATUSES as readonly string[]).includes(s)) ? 'asc' : 'desc';
  return db.cashoutRequest.findMany({
    where: { ...(status ? { status: { in: status } } : {}), ...(keysetWhere('createdAt', dir, page.after) as Prisma.CashoutRequestWhereInput) },
    include,
    orderBy: keysetOrder('createdAt', dir) as Prisma.CashoutRequestOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}
