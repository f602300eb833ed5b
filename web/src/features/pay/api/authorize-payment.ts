import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthorizationBody, RelayStatus } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { orderQueryKey } from '@/lib/query-keys';

/**
 * Hands the shop a signed USDC authorization (EIP-3009) for the order. The shop checks it
 * and answers 202; its relay sends it and pays the gas, and the order follows its usual
 * states (`authorization` on the order says where the shop's transaction is). A refusal is
 * a 4xx whose message says why, in words for the buyer.
 */
export const authorizePayment = (orderId: string, body: AuthorizationBody): Promise<{ _id: string; status: RelayStatus; message: string }> =>
  api.post(`/api/orders/${encodeURIComponent(orderId)}/authorization`, body);

export function useAuthorizePayment(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AuthorizationBody) => authorizePayment(orderId, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderQueryKey(orderId) }),
  });
}
