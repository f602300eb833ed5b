import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OverpaidOrderJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { refundsQueryKey } from './get-refunds';

export const getOverpaidOrders = ({ signal }: { signal?: AbortSignal } = {}): Promise<OverpaidOrderJson[]> =>
  api.get<OverpaidOrderJson[]>('/api/admin/refunds/overpaid', signal ? { signal } : {});

export const overpaidOrdersQueryKey = [...refundsQueryKey, 'overpaid'] as const;

/** Admin: paid orders with overpayment the buyer has neither refunded nor added to a balance. */
export const getOverpaidOrdersQueryOptions = () =>
  queryOptions({
    queryKey: overpaidOrdersQueryKey,
    queryFn: ({ signal }) => getOverpaidOrders({ signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useOverpaidOrders() {
  return useQuery(getOverpaidOrdersQueryOptions());
}
