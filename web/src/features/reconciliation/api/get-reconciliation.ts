import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReconciliationJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';

type Reply = { report: ReconciliationJson | null };

export const reconciliationQueryKey = ['admin', 'reconciliation'] as const;

export const getReconciliation = ({ signal }: { signal?: AbortSignal } = {}): Promise<Reply> =>
  api.get<Reply>('/api/admin/reconciliation', signal ? { signal } : {});

/** Admin: the reconciler's latest report (the worker runs it every few minutes). */
export function useReconciliation() {
  return useQuery(
    queryOptions({ queryKey: reconciliationQueryKey, queryFn: ({ signal }) => getReconciliation({ signal }), staleTime: SHORT_STALE_TIME }),
  );
}

export const runReconciliation = (): Promise<Reply> => api.post<Reply>('/api/admin/reconciliation/run');

/** Admin: checks the books now; the page shows the new report. */
export function useRunReconciliation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runReconciliation,
    onSuccess: (reply) => queryClient.setQueryData(reconciliationQueryKey, reply),
  });
}
