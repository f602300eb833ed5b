import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { adminPaymentsQueryKey } from './get-admin-payments';

export type RefundPaymentInput = { id: string; refundTxHash: string };

export const refundPayment = ({ id, refundTxHash }: RefundPaymentInput): Promise<{ message: string }> =>
  api.post<{ message: string }>(`/api/admin/payments/${encodeURIComponent(id)}/refund`, { refundTxHash });

/** Admin: records that a transfer was sent back, with the refund's transaction hash. */
export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundPayment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPaymentsQueryKey }),
  });
}
