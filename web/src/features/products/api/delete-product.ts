import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productsQueryKey } from '@/lib/query-keys';

export const deleteProduct = (id: string): Promise<{ message?: string }> =>
  api.delete(`/api/products/${encodeURIComponent(id)}/delete`);

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productsQueryKey }),
  });
}
