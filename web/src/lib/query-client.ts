import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

// SPEC.md section 9: data is cached 60 s by default and never refetched on focus or
// reconnect; endpoints with shorter lifetimes set their own staleTime.
export const queryDefaults = {
  queries: {
    staleTime: 60_000,
    gcTime: 60_000,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: 1,
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryDefaults });
}
