import type { AdminPaymentJson, PaymentStatus } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';
import { adminPaymentsQueryKey } from '@/lib/query-keys';

/** Transfers that need an admin: no live order tag, or mined after the quote expired. */
export const ATTENTION_STATUSES = ['UNRESOLVED', 'LATE'] as const;

/** Transfers an admin asked to send back, with their refund. */
export const REFUNDED_STATUSES = ['REFUNDED'] as const;

type Statuses = readonly PaymentStatus[];

/** Admin: transfers in these states, newest first, a page at a time. */
export function useAdminPayments(statuses: Statuses = ATTENTION_STATUSES) {
  return usePagedQuery<AdminPaymentJson>([...adminPaymentsQueryKey, ...statuses], '/api/admin/payments', { status: statuses.join(',') });
}
