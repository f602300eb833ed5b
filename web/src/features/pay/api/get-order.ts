import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { orderQueryKey } from '@/lib/query-keys';

export const getOrder = (id: string, { signal }: { signal?: AbortSignal } = {}): Promise<OrderJson> =>
  api.get<OrderJson>(`/api/orders/${encodeURIComponent(id)}`, signal ? { signal } : {});

/** How often the pay page asks for the order while a payment may still change it. */
export const ORDER_POLL_INTERVAL = 1500;

/** True once nothing about the order's payment can change any more (for the page that follows it). */
export function isSettled(order: OrderJson | undefined): boolean {
  return order?.status === 'PAID' || order?.status === 'EXPIRED' || order?.status === 'CANCELLED';
}

/** One order (owner or admin), cached 5 s. */
export const getOrderQueryOptions = (id: string) =>
  queryOptions({
    queryKey: orderQueryKey(id),
    queryFn: ({ signal }) => getOrder(id, { signal }),
    staleTime: SHORT_STALE_TIME,
  });

/**
 * With `follow`, the order is refetched every 1.5 s until it is paid or expired, so the
 * page shows the worker's verification live and picks up a fresh quote on expiry.
 */
export function useOrder(id: string, { follow = false }: { follow?: boolean } = {}) {
  return useQuery({
    ...getOrderQueryOptions(id),
    refetchInterval: follow ? (query) => (isSettled(query.state.data) ? false : ORDER_POLL_INTERVAL) : false,
  });
}
