import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminPaymentsQueryKey, refundsQueryKey } from '@/lib/query-keys';

export type RefundPaymentInput = { id: string; wallet?: string };
export type RefundPaymentResult = { message: string; refundId: string };

/** 201: a refund request in the payout queue, to the sender unless another wallet is named. */
export const refundPayment = ({ id, wallet }: RefundPaymentInput): Promise<RefundPaymentResult> =>
  api.post<RefundPaymentResult>(`/api/admin/payments/${encodeURIComponent(id)}/refund`, wallet ? { wallet } : {});

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
