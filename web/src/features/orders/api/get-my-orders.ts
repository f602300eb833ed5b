import type { OrderJson, OrderStatus } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';
import { myOrdersQueryKey } from '@/lib/query-keys';

/** The signed-in user's own orders in these states (all when none), newest first, a page at a time, cached 5 s. */
export function useMyOrders(statuses?: readonly OrderStatus[]) {
  return usePagedQuery<OrderJson>(myOrdersQueryKey, '/api/orders/mine', { status: statuses?.join(',') });
}
