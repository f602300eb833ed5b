import { Router } from 'express';
import { cashoutsCounted, OPEN_CASHOUT_STATUSES, payoutApprovalStates, Prisma, rejectCashout, withdrawPayoutCheck, type AppConfig, type Db } from '@shop/core';
import { CASHOUT_STATUSES, usdToEth, type CashoutJson, type PayoutApprovalJson } from '@shop/core/contract';
import { checkJson, latestCheck } from '../payouts/service.ts';
import { markPayoutPaid } from '../payouts/routes.ts';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireStepUp } from '../../middleware/auth.ts';
import { audited } from '../../middleware/audit.ts';
import { byCreatedAt, enumList, keysetOrder, keysetWhere, pageQuery, sendPage, type PageQuery } from '../../middleware/paging.ts';
import { parseId } from '../../middleware/validate.ts';
import { conflict, notFound } from '@shop/core';

async function cashoutJson(db: Db, config: AppConfig, id: string): Promise<CashoutJson> {
  const c = await db.cashoutRequest.findUnique({ where: { id }, include });
  if (!c) throw notFound('Cashout request not found');
  return (await rowsJson(db, config, [c]))[0] as CashoutJson;
}

/** A page of cashouts with their payout holds and approval states (two queries for the page). */
async function rowsJson(db: Db, config: AppConfig, rows: Awaited<ReturnType<typeof listRows>>): Promise<CashoutJson[]> {
  const [holds, counted] = await Promise.all([holdsOf(db, rows.map((r) => r.id)), cashoutsCounted(db, rows.map((r) => r.id))]);
  const approvals = await payoutApprovalStates(db, config, rows.map((r) => ({ id: r.id, worth: counted.get(r.id) ?? r.amountUsd })));
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
    amountUsd: Number(c.amountUsd.toFixed(2)),
    ethUsd: c.ethUsd?.toFixed(8) ?? null,
    amountEth,
    status: c.status,
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
function listRows(db: Db, status: (typeof CASHOUT_STATUSES)[number][] | undefined, page: PageQuery) {
  const dir = status && status.every((s) => (OPEN_CASHOUT_STATUSES as readonly string[]).includes(s)) ? 'asc' : 'desc';
  return db.cashoutRequest.findMany({
    where: { ...(status ? { status: { in: status } } : {}), ...(keysetWhere('createdAt', dir, page.after) as Prisma.CashoutRequestWhereInput) },
    include,
    orderBy: keysetOrder('createdAt', dir) as Prisma.CashoutRequestOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

/**
 * Admin handling of cashout requests: list, mark paid with the payout hash (the worker
 * checks it on chain before the request is PAID), reject.
 */
export function adminCashoutRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = Router();
  router.use(requireAdmin);
  router.get('/', async (req, res) => {
    const page = pageQuery(req);
    const rows = await listRows(db, enumList(req, 'status', CASHOUT_STATUSES), page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => rowsJson(db, deps.config, shown));
  });
  router.post('/:id/paid', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Cashout request');
    await markPayoutPaid(deps, { kind: 'cashout', id }, req.body, req.user!.id);
    const json = await cashoutJson(db, deps.config, id);
    await audited(req, db, { action: 'payout.marked_paid', subject: { type: 'cashout', id }, after: { txHash: json.check?.txHash ?? null, amountUsd: json.amountUsd.toFixed(2) } });
    res.status(202).json(json);
  });
  router.delete('/:id/paid', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Cashout request');
    // Only a hash the node never showed (a mistyped one): core/src/payouts.ts.
    await withdrawPayoutCheck(deps, { kind: 'cashout', id });
    await audited(req, db, { action: 'payout.hash_withdrawn', subject: { type: 'cashout', id } });
    res.json(await cashoutJson(db, deps.config, id));
  });
  router.post('/:id/reject', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Cashout request');
    if (!(await rejectCashout(db, id))) {
      await cashoutJson(db, deps.config, id);
      throw conflict('This cashout request is already settled');
    }
    const json = await cashoutJson(db, deps.config, id);
    await audited(req, db, { action: 'cashout.rejected', subject: { type: 'cashout', id }, after: { status: json.status, amountUsd: json.amountUsd.toFixed(2) } });
    res.json(json);
  });
  return router;
}
