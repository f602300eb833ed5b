import type { RefundJson } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';
import { refundListQueryKey } from '@/lib/query-keys';
import { pollWhileChecking } from './get-cashouts';

/** Admin: refunds of transfers and overpayments in the payout queue, newest first, a page at a time. */
export function useRefunds(status?: string) {
  return usePagedQuery<RefundJson>(refundListQueryKey, '/api/admin/refunds', { status }, pollWhileChecking);
}
