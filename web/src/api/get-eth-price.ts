import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ethPriceQueryKey } from '@/lib/query-keys';

/** GET /api/crypto/eth-price: USD per ETH as a decimal string (8 decimals). */
export type EthPrice = { price: string; updatedAt: string };

export const getEthPrice = ({ signal }: { signal?: AbortSignal } = {}): Promise<EthPrice> =>
  api.get<EthPrice>('/api/crypto/eth-price', signal ? { signal } : {});

/** How long a price is fresh, and how often a page that follows it asks again. */
export const ETH_PRICE_REFRESH_MS = 30_000;

/**
 * The live price, one cache for every page that shows it (the pay page's live price, the
 * cashout button's estimate; the server values quotes and payouts itself). A failed price
 * (503 while the feed is down) shows at once rather than after a retry.
 */
export const getEthPriceQueryOptions = () =>
  queryOptions({
    queryKey: ethPriceQueryKey,
    queryFn: ({ signal }) => getEthPrice({ signal }),
    staleTime: ETH_PRICE_REFRESH_MS,
    retry: false,
  });

/** With `follow`, the price is asked for again every 30 s while the page is open (the next refresh is the retry). */
export function useEthPrice({ follow = false }: { follow?: boolean } = {}) {
  return useQuery({ ...getEthPriceQueryOptions(), refetchInterval: follow ? ETH_PRICE_REFRESH_MS : false });
}
