import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import type { Product } from '../types';

export const getProducts = ({ signal }: { signal?: AbortSignal } = {}): Promise<Product[]> =>
  api.get<Product[]>('/api/products', signal ? { signal } : {});

export const productsQueryKey = ['products'] as const;

/** SPEC.md section 9: the product list is cached 5 s. */
export const getProductsQueryOptions = () =>
  queryOptions({
    queryKey: productsQueryKey,
    queryFn: ({ signal }) => getProducts({ signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useProducts() {
  return useQuery(getProductsQueryOptions());
}
