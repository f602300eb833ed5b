import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, isApiError, getErrorMessage } from '@/lib/api-client';

export type EthPrice = { price: string; updatedAt: string };

export const getEthPrice = ({ signal }: { signal?: AbortSignal } = {}): Promise<EthPrice> =>
  api.get<EthPrice>('/api/crypto/eth-price', signal ? { signal } : {});

/** How often the live price is refreshed while the pay page is open. */
export const ETH_PRICE_REFRESH_MS = 30_000;

export const getEthPriceQueryOptions = () =>
  queryOptions({
    queryKey: ['crypto', 'eth-price'] as const,
    queryFn: ({ signal }) => getEthPrice({ signal }),
    staleTime: ETH_PRICE_REFRESH_MS,
    refetchInterval: ETH_PRICE_REFRESH_MS,
    // The next refresh is the retry.
    retry: false,
  });

export function useEthPrice() {
  return useQuery(getEthPriceQueryOptions());
}

/** SPEC.md /order/{id}: 'Provider error.' when the request never got an answer, else the error's text. */
export function ethPriceErrorMessage(error: unknown): string {
  if (isApiError(error) && (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR')) return 'Provider error.';
  return getErrorMessage(error);
}
