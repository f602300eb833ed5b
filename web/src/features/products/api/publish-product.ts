import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productsQueryKey } from '@/lib/query-keys';
import type { Product } from '../types';

/** `approvalReason`: why, for a second admin when publishing waits for one. */
export type PublishProductInput = { id: string; published: boolean; approvalReason?: string };

/** Puts a package on sale (the storefront shows it) or takes it off (a draft again). */
export const publishProduct = ({ id, ...body }: PublishProductInput): Promise<Product> =>
  api.post<Product>(`/api/admin/products/${encodeURIComponent(id)}/publish`, body);

export function usePublishProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productsQueryKey }),
  });
}
