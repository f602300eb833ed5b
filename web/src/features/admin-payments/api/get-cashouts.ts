import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CashoutJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';

export const getCashouts = ({ signal }: { signal?: AbortSignal } = {}): Promise<CashoutJson[]> =>
  api.get<CashoutJson[]>('/api/admin/cashouts', signal ? { signal } : {});

export const cashoutsQueryKey = ['admin', 'cashouts'] as const;

/** Admin: every cashout request, newest first, cached 5 s like the other admin lists. */
export const getCashoutsQueryOptions = () =>
  queryOptions({
    queryKey: cashoutsQueryKey,
    queryFn: ({ signal }) => getCashouts({ signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useCashouts() {
  return useQuery(getCashoutsQueryOptions());
}
