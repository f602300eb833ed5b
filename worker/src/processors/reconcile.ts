import { runReconciliation } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * Checks the books and keeps the report (metrics, health details and the admin page read
 * it): what changed since the last run (the schedule), or everything (the weekly audit,
 * and an admin's "Check now"). A job without a scope is a scheduled one.
 */
export const reconcileJob: Processor<'reconcile'> = async (job, { runtime, logger }) => {
  const report = await runReconciliation(runtime, { scope: job.data.scope ?? 'changes' });
  if (report.discrepancies.length > 0) {
    logger.error({ msg: 'the books do not reconcile', scope: report.scope, discrepancies: report.discrepancies.length, first: report.discrepancies.slice(0, 5) });
  } else {
    logger.info({ msg: 'the books reconcile', scope: report.scope, duration_ms: report.durationMs, checked: report.checked });
  }
  return { discrepancies: report.discrepancies.length };
};
