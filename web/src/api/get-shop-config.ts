import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShopConfigJson, ShopNetwork } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { shopConfigQueryKey } from '@/lib/query-keys';

export const getShopConfig = ({ signal }: { signal?: AbortSignal } = {}): Promise<ShopConfigJson> =>
  api.get<ShopConfigJson>('/api/config', signal ? { signal } : {});

/** GET /api/config, once a visit: the network does not change while the shop runs. */
export const getShopConfigQueryOptions = () =>
  queryOptions({ queryKey: shopConfigQueryKey, queryFn: ({ signal }) => getShopConfig({ signal }), staleTime: Infinity, gcTime: Infinity });

/**
 * The network the shop runs on (core/src/contract/network.ts), or undefined while it loads
 * or when it could not be read: then nothing that depends on it (the banner, explorer
 * links, the dev wallet) is shown.
 */
export function useShopNetwork(): ShopNetwork | undefined {
  return useQuery(getShopConfigQueryOptions()).data?.network;
}
