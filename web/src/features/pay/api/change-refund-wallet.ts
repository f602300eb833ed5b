import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RefundJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { orderQueryKey } from '@/lib/query-keys';

export type RefundWalletInput = { refundId: string; wallet: string; signature: string };

/** Sends a requested refund to another wallet, with a signature of the address that sent the ETH. */
export const changeRefundWallet = ({ refundId, wallet, signature }: RefundWalletInput) =>
  api.put<RefundJson>(`/api/refunds/${encodeURIComponent(refundId)}/wallet`, { wallet, signature });

/** For the refunds of one order: the order is refetched once the server has answered. */
export function useChangeRefundWallet(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeRefundWallet,
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderQueryKey(orderId) }),
  });
}
