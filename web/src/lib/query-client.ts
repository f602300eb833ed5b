import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { isApiError } from './api-client';

/** Lifetime of users, products and orders (SPEC.md section 9). */
export const SHORT_STALE_TIME = 5000;

/** A 4xx answer will not change on a retry; network failures and 5xx may. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  return !(isApiError(error) && typeof error.status === 'number' && error.status < 500);
}

// SPEC.md section 9: data is cached 60 s by default and never refetched on focus or
// reconnect; endpoints with shorter lifetimes set their own staleTime.
export const queryDefaults = {
  queries: {
    staleTime: 60_000,
    gcTime: 60_000,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: shouldRetry,
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryDefaults });
}
