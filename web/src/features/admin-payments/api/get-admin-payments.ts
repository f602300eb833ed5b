import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminPaymentJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';

/** Transfers that need an admin: no live order tag, or mined after the quote expired. */
export const ATTENTION_STATUSES = ['UNRESOLVED', 'LATE'] as const;

export const getAdminPayments = ({ signal }: { signal?: AbortSignal } = {}): Promise<AdminPaymentJson[]> =>
  api.get<AdminPaymentJson[]>('/api/admin/payments', {
    query: { status: ATTENTION_STATUSES.join(',') },
    ...(signal ? { signal } : {}),
  });

export const adminPaymentsQueryKey = ['admin', 'payments'] as const;

export const getAdminPaymentsQueryOptions = () =>
  queryOptions({
    queryKey: [...adminPaymentsQueryKey, ...ATTENTION_STATUSES],
    queryFn: ({ signal }) => getAdminPayments({ signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useAdminPayments() {
  return useQuery(getAdminPaymentsQueryOptions());
}
