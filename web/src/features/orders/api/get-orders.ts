import type { AdminOrderJson } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';

/** Every order query (all, mine, one) sits under this key. */
export const ordersQueryKey = ['orders'] as const;
export const orderListQueryKey = [...ordersQueryKey, 'list'] as const;

/** What the admin's order list is filtered by (kept in the page's URL). */
export type OrderListFilter = { status?: string; q?: string; from?: string; to?: string };

/** Admin: every order, newest first, a page at a time (user as {_id, name}), cached 5 s. */
export function useOrders(filter: OrderListFilter = {}) {
  return usePagedQuery<AdminOrderJson>(orderListQueryKey, '/api/orders', filter);
}
