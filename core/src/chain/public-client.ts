import { createPublicClient, http, type HttpTransport, type PublicClient } from 'viem';
import { mainnet } from 'viem/chains';

/**
 * The read-only view of Ethereum the api and worker share. Always the mainnet chain
 * definition: the local node runs with chain id 1, so dev, tests and production take
 * the same code paths.
 */
export type ChainClient = PublicClient<HttpTransport, typeof mainnet>;

export type ChainClientOptions = {
  /** Per-request timeout. */
  timeoutMs?: number;
  /** Retries of a failed request (viem backs off exponentially from retryDelayMs). */
  retryCount?: number;
  retryDelayMs?: number;
  /** How often block and receipt watchers poll; mainnet's default (4 s) is slow for a local node. */
  pollingIntervalMs?: number;
};

export function createChainClient(rpcUrl: string, opts: ChainClientOptions = {}): ChainClient {
  if (!/^https?:\/\//.test(rpcUrl)) throw new Error(`ETH RPC URL must be http(s)://, got ${JSON.stringify(rpcUrl)}`);
  return createPublicClient({
    chain: mainnet,
    transport: http(rpcUrl, {
      timeout: opts.timeoutMs ?? 10_000,
      retryCount: opts.retryCount ?? 2,
      retryDelay: opts.retryDelayMs ?? 250,
    }),
    ...(opts.pollingIntervalMs !== undefined ? { pollingInterval: opts.pollingIntervalMs } : {}),
  });
}
