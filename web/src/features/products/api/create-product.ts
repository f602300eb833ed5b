import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productsQueryKey } from '@/lib/query-keys';
import type { Product } from '../types';

/** Admin: creates a sample package to be edited next. */
export const createProduct = (): Promise<Product> => api.post<Product>('/api/products');

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productsQueryKey }),
  });
}
