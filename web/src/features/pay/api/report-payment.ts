import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderStatus } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { orderQueryKey } from '@/lib/query-keys';

/**
 * Tells the server where to look for a payment. The worker verifies the transaction on
 * chain and marks the order paid itself; this call never does (DESIGN.md section 4).
 */
export const reportPayment = (orderId: string, txHash: string): Promise<{ status: OrderStatus | string }> =>
  api.put(`/api/orders/${encodeURIComponent(orderId)}/purchased`, { txHash });

export function useReportPayment(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (txHash: string) => reportPayment(orderId, txHash),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderQueryKey(orderId) }),
  });
}
