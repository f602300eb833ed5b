import { Router, type RequestHandler } from 'express';
import { askPayoutApproval, decideApproval, type ApprovalDecision } from '@shop/core';
import { APPROVAL_STATUSES, askApprovalBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import type { CatalogueCache } from '../products/catalogue-cache.ts';
import { requireAdmin, requireStepUp } from '../../middleware/auth.ts';
import { signedInActor } from '../../middleware/audit.ts';
import { byCreatedAt, enumList, pageQuery, sendPage } from '../../middleware/paging.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import { approvalsJson, approvalsPage } from './service.ts';

/**
 * Admins: large money moves waiting for a second admin (core/src/approvals/). List
 * (newest first, `status` filter; index Approval(status, createdAt, id)), ask for a
 * payout's approval, approve or reject (another admin than the one who asked, with a
 * second factor in the last 10 minutes; never approving money to oneself), withdraw (the
 * admin who asked).
 */
export function adminApprovalRoutes(deps: AppDeps, catalogue: CatalogueCache): Router {
  const { db, config } = deps;
  const router = Router();
  router.use(requireAdmin);

  router.get('/', async (req, res) => {
    const page = pageQuery(req);
    const status = enumList(req, 'status', APPROVAL_STATUSES);
    const rows = await approvalsPage(db, status, page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => approvalsJson(db, shown));
  });

  router.post('/', async (req, res) => {
    const target = parseBody(askApprovalBody, req.body);
    const row = await askPayoutApproval(db, config, signedInActor(req), { kind: target.kind, id: target.id.toLowerCase() }, deps.prices.price, target.reason);
    res.status(201).json((await approvalsJson(db, [row]))[0]);
  });

  const decide = (decision: ApprovalDecision): RequestHandler => async (req, res) => {
    const row = await decideApproval(db, signedInActor(req), { id: parseId(req.params.id as string, 'Approval'), decision });
    // An approved package change is on sale at once, in this process's catalogue too.
    if (row.kind === 'PACKAGE' && row.status === 'APPROVED') catalogue.invalidate();
    res.json((await approvalsJson(db, [row]))[0]);
  };
  router.post('/:id/approve', requireStepUp, decide('approve'));
  router.post('/:id/reject', requireStepUp, decide('reject'));
  router.post('/:id/withdraw', decide('withdraw'));
  return router;
}
