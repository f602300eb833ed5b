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

/** viem's errors for a node that did not answer or answered with a failure of its own. */
const NODE_ERROR_NAMES = new Set([
  'HttpRequestError',
  'TimeoutError',
  'SocketClosedError',
  'WebSocketRequestError',
  'RpcRequestError',
  'InternalRpcError',
  'LimitExceededRpcError',
  'ResourceUnavailableRpcError',
  'ResourceNotFoundRpcError',
  'MethodNotFoundRpcError',
  'MethodNotSupportedRpcError',
  'UnknownRpcError',
]);

/**
 * True when a chain read failed because of the node (unreachable, timed out, refused the
 * method, lacks the state), not because of what was asked: the api answers such a
 * failure with 503 and a request to try again.
 */
export function isNodeFailure(err: unknown): boolean {
  let failure = false;
  for (let e = err as { name?: unknown; message?: unknown; details?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 10; e = e.cause as typeof e, depth++) {
    // A call that reverted is the contract's answer, not the node failing.
    if (typeof e.name === 'string' && /Revert/.test(e.name)) return false;
    if (/execution reverted/i.test(`${String(e.message ?? '')} ${String(e.details ?? '')}`)) return false;
    if (typeof e.name === 'string' && NODE_ERROR_NAMES.has(e.name)) failure = true;
  }
  return failure;
}
