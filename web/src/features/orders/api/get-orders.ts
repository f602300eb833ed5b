import type { AdminOrderJson } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';
import { orderListQueryKey } from '@/lib/query-keys';

/** What the admin's order list is filtered by (kept in the page's URL). */
export type OrderListFilter = { status?: string; q?: string; from?: string; to?: string };

/** Admin: every order, newest first, a page at a time (user as {_id, name}), cached 5 s. */
export function useOrders(filter: OrderListFilter = {}) {
  return usePagedQuery<AdminOrderJson>(orderListQueryKey, '/api/orders', filter);
}
