import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DepositsSummaryJson, DepositSweepJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { usePagedQuery } from '@/lib/paged-query';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { adminPaymentsQueryKey } from '@/lib/query-keys';

/** Under the admin payments key: what changes transfers refreshes the deposit figures too. */
export const depositsQueryKey = [...adminPaymentsQueryKey, 'deposits'] as const;
const sweepsQueryKey = [...depositsQueryKey, 'sweeps'] as const;

/**
 * How often the figures are asked for again while a sweep is on its way (sent, not yet
 * confirmed): the worker follows a sweep it sent every SWEEP_FOLLOW_MS (10 s), so the page
 * shows it confirmed within seconds of its confirmation.
 */
export const SWEEP_POLL_INTERVAL = 5_000;

export const depositsSummaryQuery = () =>
  queryOptions({
    queryKey: depositsQueryKey,
    queryFn: ({ signal }) => api.get<DepositsSummaryJson>('/api/admin/deposits', { signal }),
    staleTime: SHORT_STALE_TIME,
    refetchInterval: (q) => (q.state.data?.sweepsWaiting ? SWEEP_POLL_INTERVAL : false),
  });

/** Admin: ETH waiting at deposit addresses, what the sweeps moved and cost, the sweeper's state. */
export function useDepositsSummary() {
  return useQuery(depositsSummaryQuery());
}

/** Admin: the sweeper's transactions, newest first, a page at a time. */
export function useDepositSweeps() {
  return usePagedQuery<DepositSweepJson>(sweepsQueryKey, '/api/admin/deposits/sweeps');
}
