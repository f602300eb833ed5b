import { Router } from 'express';
import { conflict, rejectCashout, withdrawPayoutCheck } from '@shop/core';
import { CASHOUT_STATUSES } from '@shop/core/contract';
import { markPayoutPaid } from '../payouts/routes.ts';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireStepUp } from '../../middleware/auth.ts';
import { audited } from '../../middleware/audit.ts';
import { byCreatedAt, enumList, pageQuery, sendPage } from '../../middleware/paging.ts';
import { parseId } from '../../middleware/validate.ts';
import { cashoutJson, listRows, rowsJson } from './service.ts';

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
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => rowsJson(db, deps.config, shown, req.user!.id));
  });
  router.post('/:id/paid', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Cashout request');
    await markPayoutPaid(deps, { kind: 'cashout', id }, req.body, req.user!.id);
    const json = await cashoutJson(db, deps.config, id, req.user!.id);
    await audited(req, db, { action: 'payout.marked_paid', subject: { type: 'cashout', id }, after: { txHash: json.check?.txHash ?? null, amountUsd: json.amountUsd.toFixed(2) } });
    res.status(202).json(json);
  });
  router.delete('/:id/paid', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Cashout request');
    // Only a hash the node never showed (a mistyped one): core/src/payouts.ts.
    await withdrawPayoutCheck(deps, { kind: 'cashout', id });
    await audited(req, db, { action: 'payout.hash_withdrawn', subject: { type: 'cashout', id } });
    res.json(await cashoutJson(db, deps.config, id, req.user!.id));
  });
  router.post('/:id/reject', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Cashout request');
    if (!(await rejectCashout(db, id))) {
      await cashoutJson(db, deps.config, id, req.user!.id);
      throw conflict('This cashout request is already settled');
    }
    const json = await cashoutJson(db, deps.config, id, req.user!.id);
    await audited(req, db, { action: 'cashout.rejected', subject: { type: 'cashout', id }, after: { status: json.status, amountUsd: json.amountUsd.toFixed(2) } });
    res.json(json);
  });
  return router;
}
