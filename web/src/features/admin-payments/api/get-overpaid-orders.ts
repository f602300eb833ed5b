import type { OverpaidOrderJson } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';
import { overpaidOrdersQueryKey } from '@/lib/query-keys';

/** Admin: paid orders with overpayment the buyer has neither refunded nor added to a balance, a page at a time. */
export function useOverpaidOrders() {
  return usePagedQuery<OverpaidOrderJson>(overpaidOrdersQueryKey, '/api/admin/refunds/overpaid');
}
