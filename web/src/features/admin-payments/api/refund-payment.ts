import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminPaymentsQueryKey, refundsQueryKey } from '@/lib/query-keys';

/** What a refund request names: a wallet (none: the sender's) and why, for a second admin if it waits for one. */
export type RefundTarget = { wallet?: string; approvalReason?: string };

export type RefundPaymentInput = { id: string } & RefundTarget;
export type RefundPaymentResult = { message: string; refundId: string; awaitsApproval?: boolean };

/** 201: a refund request in the payout queue, to the sender unless another wallet is named. */
export const refundPayment = ({ id, ...target }: RefundPaymentInput): Promise<RefundPaymentResult> =>
  api.post<RefundPaymentResult>(`/api/admin/payments/${encodeURIComponent(id)}/refund`, target);

/** Admin: asks for a transfer to be sent back; the payout is then paid from the Cashouts page. */
export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundPayment,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminPaymentsQueryKey });
      await queryClient.invalidateQueries({ queryKey: refundsQueryKey, refetchType: 'none' });
    },
  });
}
