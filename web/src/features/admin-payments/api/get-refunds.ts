import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RefundJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { pollWhileChecking } from './get-cashouts';

export const getRefunds = ({ signal }: { signal?: AbortSignal } = {}): Promise<RefundJson[]> =>
  api.get<RefundJson[]>('/api/admin/refunds', signal ? { signal } : {});

/** Refunds and overpaid orders: a refund request changes both. */
export const refundsQueryKey = ['admin', 'refunds'] as const;
export const refundListQueryKey = [...refundsQueryKey, 'list'] as const;

/** Admin: refunds of transfers and overpayments in the payout queue, newest first. */
export const getRefundsQueryOptions = () =>
  queryOptions({
    queryKey: refundListQueryKey,
    queryFn: ({ signal }) => getRefunds({ signal }),
    staleTime: SHORT_STALE_TIME,
    refetchInterval: (query) => pollWhileChecking(query.state.data),
  });

export function useRefunds() {
  return useQuery(getRefundsQueryOptions());
}
