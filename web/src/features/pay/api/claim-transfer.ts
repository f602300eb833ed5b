import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { orderQueryKey } from '@/lib/query-keys';

/** Claims a transfer that lost its tag, with a signature of the address that sent it. */
export const claimTransfer = (orderId: string, body: { txHash: string; signature: string }) =>
  api.put<{ status: string; orderStatus: string }>(`/api/orders/${encodeURIComponent(orderId)}/claim`, body);

export function useClaimTransfer(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { txHash: string; signature: string }) => claimTransfer(orderId, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderQueryKey(orderId) }),
  });
}
