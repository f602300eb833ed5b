import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { orderQueryKey, profileQueryKey } from '@/lib/query-keys';

/** balance: credited to the active balance; refund: sent back to the address that paid. */
export type OverpaymentAction = 'balance' | 'refund';

/** The api's answer: what was credited ("5.00"), or how many refunds were asked and whether a rest waits for a named wallet. */
export type SettledOverpayment = { message: string; credited?: string; refunds?: number; rest?: boolean };

export const settleOverpayment = (orderId: string, action: OverpaymentAction): Promise<SettledOverpayment> =>
  api.post<SettledOverpayment>(`/api/orders/${encodeURIComponent(orderId)}/overpayment`, { action });

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
