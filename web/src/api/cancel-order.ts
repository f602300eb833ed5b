import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { myOrdersQueryKey, orderQueryKey } from '@/lib/query-keys';

export const cancelOrder = (id: string): Promise<{ message: string; order: OrderJson }> =>
  api.post<{ message: string; order: OrderJson }>(`/api/orders/${encodeURIComponent(id)}/cancel`, {});

/** The buyer cancels their own unpaid order: the order and the buyer's list are read again. */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSuccess: async (result, id) => {
      queryClient.setQueryData(orderQueryKey(id), (old: OrderJson | undefined) => (old ? { ...old, ...result.order, quote: null } : old));
      await queryClient.invalidateQueries({ queryKey: orderQueryKey(id) });
      await queryClient.invalidateQueries({ queryKey: myOrdersQueryKey });
    },
  });
}
