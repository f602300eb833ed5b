import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CashoutJson, PayoutCheckJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';

export const getCashouts = ({ signal }: { signal?: AbortSignal } = {}): Promise<CashoutJson[]> =>
  api.get<CashoutJson[]>('/api/admin/cashouts', signal ? { signal } : {});

export const cashoutsQueryKey = ['admin', 'cashouts'] as const;

/** How often a payout list is asked for again while the worker checks one of its payouts. */
export const PAYOUT_CHECK_POLL_INTERVAL = 4000;

/** A refetchInterval: poll while any payout transaction is being checked on chain, else not at all. */
export function pollWhileChecking(payouts: { check: PayoutCheckJson | null }[] | undefined): number | false {
  return payouts?.some((p) => p.check?.status === 'CHECKING') ? PAYOUT_CHECK_POLL_INTERVAL : false;
}

/** Admin: every cashout request, newest first, cached 5 s like the other admin lists. */
export const getCashoutsQueryOptions = () =>
  queryOptions({
    queryKey: cashoutsQueryKey,
    queryFn: ({ signal }) => getCashouts({ signal }),
    staleTime: SHORT_STALE_TIME,
    refetchInterval: (query) => pollWhileChecking(query.state.data),
  });

export function useCashouts() {
  return useQuery(getCashoutsQueryOptions());
}
