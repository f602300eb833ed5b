import { latestReconciliation, type Db, type ReconcileReport } from '@shop/core';
import type { ReconciliationJson } from '@shop/core/contract';

export const reportJson = (r: ReconcileReport | null): ReconciliationJson | null =>
  r && {
    startedAt: r.startedAt.toISOString(),
    durationMs: r.durationMs,
    discrepancies: r.discrepancies,
    checked: r.checked,
    scope: r.scope ?? 'audit',
    since: r.since?.toISOString() ?? null,
  };

/** The reconciler's latest report, null before its first run. */
export async function latestReport(db: Db): Promise<ReconciliationJson | null> {
  return reportJson(await latestReconciliation(db));
}
