import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/crypto/eth-price: USD per ETH as a decimal string (8 decimals). */
export type EthPrice = { price: string; updatedAt: string };

export const getEthPrice = ({ signal }: { signal?: AbortSignal } = {}): Promise<EthPrice> =>
  api.get<EthPrice>('/api/crypto/eth-price', signal ? { signal } : {});

/**
 * The cashout button's estimate only; the server values the payout itself. A failed
 * price (503 while the feed is down) shows at once rather than after a retry.
 */
export const getEthPriceQueryOptions = () =>
  queryOptions({
    queryKey: ['cashout', 'eth-price'] as const,
    queryFn: ({ signal }) => getEthPrice({ signal }),
    staleTime: 30_000,
    retry: false,
  });

export function useEthPrice() {
  return useQuery(getEthPriceQueryOptions());
}
