import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RefundJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { ordersQueryKey, refundsQueryKey } from '@/lib/query-keys';
import type { RefundTarget } from './refund-payment';

export type RefundOverpaymentInput = { orderId: string } & RefundTarget;

/** 201: refund requests in the payout queue, one per transfer that overpaid, each to its sender unless a wallet is named. */
export const refundOverpayment = (input: RefundOverpaymentInput): Promise<RefundJson[]> => api.post<RefundJson[]>('/api/admin/refunds', input);

/** Admin: refunds what is left of an order's overpayment (paid out from the Cashouts page). */
export function useRefundOverpayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundOverpayment,
    onSuccess: async () => {
      // The overpaid orders and the refund queue.
      await queryClient.invalidateQueries({ queryKey: refundsQueryKey });
      await queryClient.invalidateQueries({ queryKey: ordersQueryKey, refetchType: 'none' });
    },
  });
}
