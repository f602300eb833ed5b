import { latestReconciliation, type Db, type ReconcileReport } from '@shop/core';
import type { Locale, ReconciliationJson } from '@shop/core/contract';
import { translateMessage } from '../../messages/translate.ts';

/**
 * A report as the admin reads it, in `locale`: each finding's message and the checked
 * line's words (chain 'not checked: ...') through the api's catalogue
 * (messages/reconcile-en.ts); checks, ids and counts as they are. The stored report, and
 * the console's (`npm run reconcile`), stay in English.
 */
export const reportJson = (r: ReconcileReport | null, locale: Locale): ReconciliationJson | null =>
  r && {
    startedAt: r.startedAt.toISOString(),
    durationMs: r.durationMs,
    discrepancies: r.discrepancies.map((d) => ({ ...d, message: translateMessage(locale, d.message) })),
    checked: Object.fromEntries(Object.entries(r.checked).map(([what, n]) => [what, typeof n === 'string' ? translateMessage(locale, n) : n])),
    scope: r.scope ?? 'audit',
    since: r.since?.toISOString() ?? null,
  };

/** The reconciler's latest report in `locale`, null before its first run. */
export async function latestReport(db: Db, locale: Locale): Promise<ReconciliationJson | null> {
  return reportJson(await latestReconciliation(db), locale);
}
