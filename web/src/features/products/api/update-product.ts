import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productsQueryKey } from '@/lib/query-keys';
import type { Product, ProductInput } from '../types';

export const updateProduct = (input: ProductInput): Promise<Product> =>
  api.put<Product>(`/api/products/${encodeURIComponent(input.productId)}`, input);

/** Admin: saves a package; the list and the detail (same key prefix) are refetched. */
export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productsQueryKey }),
  });
}
