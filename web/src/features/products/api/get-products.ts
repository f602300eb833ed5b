import { usePagedQuery } from '@/lib/paged-query';
import { productsQueryKey } from '@/lib/query-keys';
import type { Product } from '../types';

/** SPEC.md section 9: the product list is cached 5 s; read a page at a time, optionally those named like `q`. */
export function useProducts(q?: string) {
  return usePagedQuery<Product>(productsQueryKey, '/api/products', { q });
}
