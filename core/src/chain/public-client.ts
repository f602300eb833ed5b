import { createPublicClient, http, type HttpTransport, type PublicClient, type Transport } from 'viem';
import { mainnet } from 'viem/chains';
import { redactNodeUrl, scrubUrls } from '../infra/secret-urls.ts';

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
  if (!/^https?:\/\//.test(rpcUrl)) throw new Error(`ETH RPC URL must be http(s)://, got ${JSON.stringify(redactNodeUrl(rpcUrl))}`);
  return createPublicClient({
    chain: mainnet,
    transport: withoutNodeUrl(
      http(rpcUrl, {
        timeout: opts.timeoutMs ?? 10_000,
        retryCount: opts.retryCount ?? 2,
        retryDelay: opts.retryDelayMs ?? 250,
      }),
      rpcUrl,
    ),
    ...(opts.pollingIntervalMs !== undefined ? { pollingInterval: opts.pollingIntervalMs } : {}),
  });
}

/** A transport whose errors never carry the node's URL (where providers keep the API key). */
export function withoutNodeUrl<T extends Transport>(transport: T, url: string): T {
  return ((opts: Parameters<T>[0]) => {
    const made = transport(opts);
    const request = (async (args: never, options: never) => {
      try {
        return await made.request(args, options);
      } catch (err) {
        throw scrubUrls(err, [url]);
      }
    }) as typeof made.request;
    return { ...made, request };
  }) as T;
}
