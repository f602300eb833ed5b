import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { orderQueryKey, profileQueryKey } from '@/lib/query-keys';

/** balance: credited to the active balance; refund: sent back to the address that paid. */
export type OverpaymentAction = 'balance' | 'refund';

export const settleOverpayment = (orderId: string, action: OverpaymentAction): Promise<{ message: string }> =>
  api.post<{ message: string }>(`/api/orders/${encodeURIComponent(orderId)}/overpayment`, { action });

/** The buyer's choice for what a paid order received beyond its total. */
export function useSettleOverpayment(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: OverpaymentAction) => settleOverpayment(orderId, action),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: orderQueryKey(orderId) });
      // The active balance may have grown; /profile refetches it when it is open.
      await queryClient.invalidateQueries({ queryKey: profileQueryKey });
    },
  });
}
