import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import type { Product } from '../types';
import { productsQueryKey } from './get-products';

export const getProduct = (id: string, { signal }: { signal?: AbortSignal } = {}): Promise<Product> =>
  api.get<Product>(`/api/products/${encodeURIComponent(id)}`, signal ? { signal } : {});

export const productQueryKey = (id: string) => [...productsQueryKey, id] as const;

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
