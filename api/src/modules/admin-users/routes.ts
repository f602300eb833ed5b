import { Router } from 'express';
import { adminUpdateUserBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { accountGuards } from '../../middleware/accounts.ts';
import { requireAdmin, requireStepUp } from '../../middleware/auth.ts';
import { auditContext, signedInActor } from '../../middleware/audit.ts';
import { byCreatedAt, pageQuery, searchTerm, sendPage } from '../../middleware/paging.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import { getUserJson } from '../profile/service.ts';
import { adminDeleteUser, adminUpdateUser, userListJson, usersPage } from './service.ts';

/**
 * Admin: the users (under /api/users). Mounted after the other account routes: `/:id`
 * would take their paths (`/profile`, `/2fa`) otherwise.
 */
export function adminUserRoutes(deps: AppDeps): Router {
  const { db, config } = deps;
  const router = Router();
  const { handOnAfter } = accountGuards(deps);

  // Every user's e-mail, page after page: a second factor given in the last 10 minutes.
  router.get('/', requireAdmin, requireStepUp, async (req, res) => {
    const page = pageQuery(req);
    const rows = await usersPage(db, searchTerm(req), page);
    await sendPage(req, res, page, rows, byCreatedAt, userListJson);
  });

  router.get('/:id', requireAdmin, async (req, res) => {
    res.json(await getUserJson(db, parseId(req.params.id, 'User')));
  });

  router.put('/:id', requireAdmin, requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'User');
    const input = parseBody(adminUpdateUserBody, req.body);
    const { user, effects } = await adminUpdateUser(db, config, signedInActor(req, input.approvalReason), id, input);
    await handOnAfter(req, effects);
    // 202: saved, but a large balance increase or admin rights wait for a second admin.
    res.status(user.pendingApproval || user.pendingAdminGrant ? 202 : 200).json(user);
  });

  router.delete('/:id', requireAdmin, requireStepUp, async (req, res) => {
    await adminDeleteUser(db, auditContext(req), parseId(req.params.id, 'User'));
    res.json({ message: 'User removed' });
  });

  return router;
}
