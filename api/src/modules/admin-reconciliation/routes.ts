import { Router } from 'express';
import { jobs, latestReconciliation, type ReconcileReport } from '@shop/core';
import type { ReconciliationJson } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from '../../middleware/auth.ts';
import { audited } from '../../middleware/audit.ts';

const toJson = (r: ReconcileReport | null): ReconciliationJson | null =>
  r && {
    startedAt: r.startedAt.toISOString(),
    durationMs: r.durationMs,
    discrepancies: r.discrepancies,
    checked: r.checked,
    scope: r.scope ?? 'audit',
    since: r.since?.toISOString() ?? null,
  };

/**
 * Admins: the reconciler's latest report, and a full audit on demand. The audit reads the
 * whole history in batches, so it runs in the worker, never inside this request: the
 * answer is 202 and the report replaces the latest one when the audit ends.
 */
export function adminReconciliationRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin);
  router.get('/', async (_req, res) => {
    res.json({ report: toJson(await latestReconciliation(deps.db)) });
  });
  router.post('/run', async (req, res) => {
    const queued = await jobs.auditBooks(deps.queues);
    if (queued) await audited(req, deps.db, { action: 'reconciliation.run' });
    res.status(202).json({
      message: queued ? 'The audit of the books has started' : 'An audit of the books is already running',
      report: toJson(await latestReconciliation(deps.db)),
    });
  });
  return router;
}
