import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderStatus } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { ordersQueryKey, adminPaymentsQueryKey } from '@/lib/query-keys';

export type AssignPaymentInput = { id: string; orderId: string };
export type AssignPaymentResult = { status: string; orderStatus: OrderStatus };

export const assignPayment = ({ id, orderId }: AssignPaymentInput): Promise<AssignPaymentResult> =>
  api.post<AssignPaymentResult>(`/api/admin/payments/${encodeURIComponent(id)}/assign`, { orderId });

/** Admin: counts a transfer toward an order; the server re-reads it from the chain. */
export function useAssignPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignPayment,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminPaymentsQueryKey });
      // The order may now be paid.
      await queryClient.invalidateQueries({ queryKey: ordersQueryKey, refetchType: 'none' });
    },
  });
}
