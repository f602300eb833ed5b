import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { productQueryKey } from '@/lib/query-keys';
import type { Product } from '../types';

export const getProduct = (id: string, { signal }: { signal?: AbortSignal } = {}): Promise<Product> =>
  api.get<Product>(`/api/products/${encodeURIComponent(id)}`, signal ? { signal } : {});

/** SPEC.md section 9: product details are cached 5 s. */
export const getProductQueryOptions = (id: string) =>
  queryOptions({
    queryKey: productQueryKey(id),
    queryFn: ({ signal }) => getProduct(id, { signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useProduct(id: string) {
  return useQuery(getProductQueryOptions(id));
}
