import { useEffect } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminOrderDetailJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { adminOrderQueryKey } from '@/lib/query-keys';

export const getAdminOrder = (id: string, { signal }: { signal?: AbortSignal } = {}): Promise<AdminOrderDetailJson> =>
  api.get<AdminOrderDetailJson>(`/api/admin/orders/${encodeURIComponent(id)}`, signal ? { signal } : {});

/** How often the page asks again while the worker is still deciding something on it. */
const POLL_MS = 4000;

/** A transfer still being confirmed or a payout hash being checked: the page follows it. */
function stillMoving(order: AdminOrderDetailJson | undefined): boolean {
  return Boolean(order?.payments.items.some((p) => p.status === 'PENDING') || order?.refunds.items.some((r) => r.check?.status === 'CHECKING'));
}

export const getAdminOrderQueryOptions = (id: string) =>
  queryOptions({
    queryKey: adminOrderQueryKey(id),
    queryFn: ({ signal }) => getAdminOrder(id, { signal }),
    staleTime: SHORT_STALE_TIME,
  });

/**
 * Admin: one order with its transfers, refunds and deliveries. Any admin action taken on the
 * page (the Payments and Cashouts pages' actions refresh their own lists) refreshes it too.
 */
export function useAdminOrder(id: string) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success') void queryClient.invalidateQueries({ queryKey: adminOrderQueryKey(id) });
      }),
    [queryClient, id],
  );
  return useQuery({ ...getAdminOrderQueryOptions(id), refetchInterval: (query) => (stillMoving(query.state.data) ? POLL_MS : false) });
}
