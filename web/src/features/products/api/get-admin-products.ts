import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usePagedQuery } from '@/lib/paged-query';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { adminProductsQueryKey, adminProductQueryKey } from '@/lib/query-keys';
import type { Product } from '../types';

/** Admin: every package, drafts too (the storefront's list shows only those on sale), a page at a time. */
export function useAdminProducts() {
  return usePagedQuery<Product>(adminProductsQueryKey, '/api/admin/products');
}

export const getAdminProduct = (id: string, { signal }: { signal?: AbortSignal } = {}): Promise<Product> =>
  api.get<Product>(`/api/admin/products/${encodeURIComponent(id)}`, signal ? { signal } : {});

/** Admin: one package, a draft too (the edit page). */
export function useAdminProduct(id: string) {
  return useQuery(
    queryOptions({
      queryKey: adminProductQueryKey(id),
      queryFn: ({ signal }) => getAdminProduct(id, { signal }),
      staleTime: SHORT_STALE_TIME,
    }),
  );
}
