import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { requireUser } from '../../middleware/auth.ts';
import { byCreatedAt, pageQuery, sendPage } from '../../middleware/paging.ts';
import { openCashouts, statementJson, statementPage } from './service.ts';

/** The signed-in user's statement and waiting cashouts (mounted at /api/users/profile). */
export function statementRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = Router();

  router.get('/statement', requireUser, async (req, res) => {
    const page = pageQuery(req);
    const userId = req.user!.id;
    const rows = await statementPage(db, userId, page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => statementJson(db, userId, shown));
  });

  router.get('/cashouts', requireUser, async (req, res) => {
    res.json(await openCashouts(db, req.user!.id));
  });

  return router;
}
