import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { ordersQueryKey, orderQueryKey } from '@/lib/query-keys';
import type { Cart } from '@/stores/cart-store';

export type CreateOrderBody = Pick<Cart, 'itemsPrice' | 'totalPrice'> & { orderedItems: Cart['cartItems'] };

/** The server prices the order itself; a stale client total comes back as a 409. */
export const createOrder = (body: CreateOrderBody): Promise<OrderJson> => api.post<OrderJson>('/api/orders', body);

export function useCreateOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrder,
    onSuccess: async (order) => {
      // Order lists are out of date; the pay page opens on the order just returned and
      // fetches it again at once for its quote (the reply to the POST carries none).
      await queryClient.invalidateQueries({ queryKey: ordersQueryKey, refetchType: 'none' });
      queryClient.setQueryData(orderQueryKey(order._id), order);
      await queryClient.invalidateQueries({ queryKey: orderQueryKey(order._id), refetchType: 'none' });
    },
  });
}
