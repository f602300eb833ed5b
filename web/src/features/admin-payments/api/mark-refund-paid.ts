import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RefundJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { adminPaymentsQueryKey, refundsQueryKey } from '@/lib/query-keys';

export type MarkRefundPaidInput = { id: string; payoutTxHash: string };

/** 202: the refund stays REQUESTED with a CHECKING check until the worker has verified the transaction on chain. */
export const markRefundPaid = ({ id, payoutTxHash }: MarkRefundPaidInput): Promise<RefundJson> =>
  api.post<RefundJson>(`/api/admin/refunds/${encodeURIComponent(id)}/paid`, { payoutTxHash });

/** Admin: names the transaction that sent a refund, for the worker to verify. */
export function useMarkRefundPaid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markRefundPaid,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: refundsQueryKey });
      // The refunded transfer's line on the Payments page shows the payout once paid.
      await queryClient.invalidateQueries({ queryKey: adminPaymentsQueryKey, refetchType: 'none' });
    },
  });
}
