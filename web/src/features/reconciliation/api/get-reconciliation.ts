import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReconciliationJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { reconciliationQueryKey } from '@/lib/query-keys';

type Reply = { report: ReconciliationJson | null };
/** `queued`: false when an audit was already running. */
type RunReply = Reply & { queued: boolean };

/** How often the page asks for the report while an audit it asked for is running. */
export const AUDIT_POLL_INTERVAL = 2000;

export const getReconciliation = ({ signal }: { signal?: AbortSignal } = {}): Promise<Reply> =>
  api.get<Reply>('/api/admin/reconciliation', signal ? { signal } : {});

/**
 * An audit asked for and not reported yet: the newest report is not a newer audit than
 * the one there was when it was asked for (`after`, null when there was none).
 */
export function auditPending(waiting: { after: string | null } | null, report: ReconciliationJson | null | undefined): boolean {
  if (!waiting) return false;
  return !(report && report.scope === 'audit' && (waiting.after === null || report.startedAt > waiting.after));
}

/** Admin: the reconciler's latest report (the worker checks what changed every few minutes). */
export function useReconciliation() {
  return useQuery(queryOptions({ queryKey: reconciliationQueryKey, queryFn: ({ signal }) => getReconciliation({ signal }), staleTime: SHORT_STALE_TIME }));
}

/** How long the page waits for an audit's report before saying it is still running. */
export const AUDIT_WAIT_MS = 10 * 60_000;

/**
 * Admin: asks the worker for a full audit of the books now (202), then waits for its
 * report (polling the latest one) and resolves with it, or with null when it takes longer
 * than AUDIT_WAIT_MS. `onQueued` is told at once whether it started one or one was running.
 */
export function useRunReconciliation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (onQueued: (started: boolean) => void): Promise<ReconciliationJson | null> => {
      const queued = await api.post<RunReply>('/api/admin/reconciliation/run');
      onQueued(queued.queued !== false);
      const waiting = { after: queued.report?.scope === 'audit' ? queued.report.startedAt : null };
      for (const until = Date.now() + AUDIT_WAIT_MS; Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, AUDIT_POLL_INTERVAL));
        const latest = await getReconciliation();
        queryClient.setQueryData(reconciliationQueryKey, latest);
        if (!auditPending(waiting, latest.report)) return latest.report;
      }
      return null;
    },
  });
}
