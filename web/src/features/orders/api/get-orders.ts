import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminOrderJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';

export const getOrders = ({ signal }: { signal?: AbortSignal } = {}): Promise<AdminOrderJson[]> =>
  api.get<AdminOrderJson[]>('/api/orders', signal ? { signal } : {});

/** Every order query (all, mine, one) sits under this key. */
export const ordersQueryKey = ['orders'] as const;
export const orderListQueryKey = [...ordersQueryKey, 'list'] as const;

/** Admin: all orders (user as {_id, name}), cached 5 s. */
export const getOrdersQueryOptions = () =>
  queryOptions({
    queryKey: orderListQueryKey,
    queryFn: ({ signal }) => getOrders({ signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useOrders() {
  return useQuery(getOrdersQueryOptions());
}
