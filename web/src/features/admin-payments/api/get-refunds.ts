import type { RefundJson } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';
import { pollWhileChecking } from './get-cashouts';

/** Refunds and overpaid orders: a refund request changes both. */
export const refundsQueryKey = ['admin', 'refunds'] as const;
export const refundListQueryKey = [...refundsQueryKey, 'list'] as const;

/** Admin: refunds of transfers and overpayments in the payout queue, newest first, a page at a time. */
export function useRefunds(status?: string) {
  return usePagedQuery<RefundJson>(refundListQueryKey, '/api/admin/refunds', { status }, pollWhileChecking);
}
