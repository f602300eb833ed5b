import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminPaymentJson, PaymentStatus } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';

/** Transfers that need an admin: no live order tag, or mined after the quote expired. */
export const ATTENTION_STATUSES = ['UNRESOLVED', 'LATE'] as const;

/** Transfers an admin asked to send back, with their refund. */
export const REFUNDED_STATUSES = ['REFUNDED'] as const;

type Statuses = readonly PaymentStatus[];

export const getAdminPayments = (
  statuses: Statuses = ATTENTION_STATUSES,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AdminPaymentJson[]> =>
  api.get<AdminPaymentJson[]>('/api/admin/payments', {
    query: { status: statuses.join(',') },
    ...(signal ? { signal } : {}),
  });

export const adminPaymentsQueryKey = ['admin', 'payments'] as const;

export const getAdminPaymentsQueryOptions = (statuses: Statuses = ATTENTION_STATUSES) =>
  queryOptions({
    queryKey: [...adminPaymentsQueryKey, ...statuses],
    queryFn: ({ signal }) => getAdminPayments(statuses, { signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useAdminPayments(statuses: Statuses = ATTENTION_STATUSES) {
  return useQuery(getAdminPaymentsQueryOptions(statuses));
}
