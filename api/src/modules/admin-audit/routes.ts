import { Router } from 'express';
import { AUDIT_ACTIONS } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireStepUp } from '../../middleware/auth.ts';
import { enumList, pageQuery, searchTerm, sendPage } from '../../middleware/paging.ts';
import { auditJson, auditPage } from './service.ts';

/**
 * Admins: the audit log, newest first, paged by its sequence. Filters: `actor` (a user id
 * or an e-mail), `action` (one or more, comma-separated), `subject` (the id of what was
 * acted on). Each filter is served by an index led by its column and ending in `seq`.
 * Read with a fresh second factor (an admin who has one): filtered by sign-ins it hands
 * over every shopper's e-mail, page after page, like the full user list.
 */
export function adminAuditRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin, requireStepUp);
  router.get('/', async (req, res) => {
    const page = pageQuery(req, 'seq');
    const actor = searchTerm(req, 'actor');
    const subject = searchTerm(req, 'subject');
    const actions = enumList(req, 'action', AUDIT_ACTIONS, { upper: false });
    const rows = await auditPage(deps.db, { actor, subject, actions }, page);
    await sendPage(req, res, page, rows, (r) => ({ key: r.seq, id: r.id }), (shown) => auditJson(deps.db, shown));
  });
  return router;
}
