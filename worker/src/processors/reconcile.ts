import { runReconciliation } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/** Checks the books and keeps the report (metrics, health details and the admin page read it). */
export const reconcileJob: Processor<'reconcile'> = async (_job, { runtime, logger }) => {
  const report = await runReconciliation(runtime);
  if (report.discrepancies.length > 0) {
    logger.error({ msg: 'the books do not reconcile', discrepancies: report.discrepancies.length, first: report.discrepancies.slice(0, 5) });
  } else {
    logger.info({ msg: 'the books reconcile', duration_ms: report.durationMs, checked: report.checked });
  }
  return { discrepancies: report.discrepancies.length };
};
