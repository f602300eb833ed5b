import { Router } from 'express';
import { jobs } from '@shop/core';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from '../../middleware/auth.ts';
import { audited } from '../../middleware/audit.ts';
import { requestLocale } from '../../middleware/locale.ts';
import { latestReport } from './service.ts';

/**
 * Admins: the reconciler's latest report, and a full audit on demand. The audit reads the
 * whole history in batches, so it runs in the worker, never inside this request: the
 * answer is 202 and the report replaces the latest one when the audit ends. The report's
 * findings are answered in the admin's language (service.ts).
 */
export function adminReconciliationRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin);
  router.get('/', async (req, res) => {
    res.json({ report: await latestReport(deps.db, requestLocale(req)) });
  });
  router.post('/run', async (req, res) => {
    const queued = await jobs.auditBooks(deps.queues);
    if (queued) await audited(req, deps.db, { action: 'reconciliation.run' });
    res.status(202).json({
      message: queued ? 'The audit of the books has started' : 'An audit of the books is already running',
      queued,
      report: await latestReport(deps.db, requestLocale(req)),
    });
  });
  return router;
}
