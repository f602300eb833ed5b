import { Router } from 'express';
import { latestReconciliation, runReconciliation, type ReconcileReport } from '@shop/core';
import type { ReconciliationJson } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from '../../middleware/auth.ts';

const toJson = (r: ReconcileReport | null): ReconciliationJson | null =>
  r && { startedAt: r.startedAt.toISOString(), durationMs: r.durationMs, discrepancies: r.discrepancies, checked: r.checked };

/** Admins: the reconciler's latest report, and a run on demand. */
export function adminReconciliationRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin);
  router.get('/', async (_req, res) => {
    res.json({ report: toJson(await latestReconciliation(deps.db)) });
  });
  router.post('/run', async (_req, res) => {
    res.json({ report: toJson(await runReconciliation(deps)) });
  });
  return router;
}
