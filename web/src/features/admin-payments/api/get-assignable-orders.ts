import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AssignableOrderJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { assignableOrdersQueryKey } from '@/lib/query-keys';

export const getAssignableOrders = (paymentId: string, q: string, signal?: AbortSignal): Promise<AssignableOrderJson[]> =>
  api.get<AssignableOrderJson[]>(`/api/admin/payments/${encodeURIComponent(paymentId)}/orders`, { query: q ? { q } : {}, ...(signal ? { signal } : {}) });

/**
 * Admin: the open orders the server offers for a transfer: those `q` names (a reference,
 * an id, the buyer's e-mail or name), or with no `q` the orders it was reported for.
 */
export function useAssignableOrders(paymentId: string, q: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: assignableOrdersQueryKey(paymentId, q),
      queryFn: ({ signal }) => getAssignableOrders(paymentId, q, signal),
      staleTime: SHORT_STALE_TIME,
      enabled,
    }),
  );
}
