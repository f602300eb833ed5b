import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssetCode, OrderStatus } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { orderQueryKey } from '@/lib/query-keys';

/**
 * Tells the server where to look for a payment. The worker verifies the transaction on
 * chain and marks the order paid itself; this call never does (DESIGN.md section 4).
 */
export const reportPayment = (orderId: string, txHash: string, asset: AssetCode = 'ETH'): Promise<{ status: OrderStatus | string }> =>
  api.put(`/api/orders/${encodeURIComponent(orderId)}/purchased`, asset === 'ETH' ? { txHash } : { txHash, asset });

export function useReportPayment(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ txHash, asset }: { txHash: string; asset?: AssetCode }) => reportPayment(orderId, txHash, asset),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderQueryKey(orderId) }),
  });
}
