import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { ordersQueryKey } from './get-orders';

export const getMyOrders = ({ signal }: { signal?: AbortSignal } = {}): Promise<OrderJson[]> =>
  api.get<OrderJson[]>('/api/orders/mine', signal ? { signal } : {});

export const myOrdersQueryKey = [...ordersQueryKey, 'mine'] as const;

/** The signed-in user's own orders, cached 5 s. */
export const getMyOrdersQueryOptions = () =>
  queryOptions({
    queryKey: myOrdersQueryKey,
    queryFn: ({ signal }) => getMyOrders({ signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useMyOrders() {
  return useQuery(getMyOrdersQueryOptions());
}
