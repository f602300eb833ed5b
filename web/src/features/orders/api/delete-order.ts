import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ordersQueryKey } from '@/lib/query-keys';

export const deleteOrder = (id: string): Promise<{ message?: string }> =>
  api.delete(`/api/orders/${encodeURIComponent(id)}/delete`);

/** Admin: deletes an order; every order query is refetched. */
export function useDeleteOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrder,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ordersQueryKey }),
  });
}
