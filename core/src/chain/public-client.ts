import { createPublicClient, http, type HttpTransport, type PublicClient, type Transport } from 'viem';
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

/**
 * A node's URL as messages and logs may show it: its scheme and host. Providers put the
 * API key in the path (`/v3/<key>`), the query or the credentials, so none of those is
 * shown ('…' says a path was there).
 */
export function redactNodeUrl(url: string): string {
  try {
    const u = new URL(url);
    const hidden = (u.pathname !== '/' && u.pathname !== '') || u.search !== '' || u.hash !== '';
    return `${u.protocol}//${u.host}${hidden ? '/…' : ''}`;
  } catch {
    return '[node URL]';
  }
}

/** Every way `url` may be written in a message: as given, normalised, without its credentials; longest first. */
function spellings(url: string): string[] {
  const out = new Set([url]);
  try {
    const u = new URL(url);
    out.add(u.toString());
    u.username = '';
    u.password = '';
    out.add(u.toString());
    out.add(u.toString().replace(/\/$/, ''));
  } catch {
    // not a URL: only as given
  }
  return [...out].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}

/** `text` with every spelling of the URLs replaced by their redacted form. */
export function redactUrlsIn(text: string, urls: readonly string[]): string {
  let out = text;
  for (const url of urls) for (const spelled of spellings(url)) out = out.split(spelled).join(redactNodeUrl(url));
  return out;
}

/**
 * Rewrites, in place, every string an error (and its causes) carries so that none names
 * the URLs: viem writes the request URL into `message`, `url`, `details` and
 * `metaMessages`. In place, so its class and fields (what isNodeFailure and the retry
 * logic read) stay as they were.
 */
export function scrubUrls<T>(err: T, urls: readonly string[]): T {
  const seen = new Set<unknown>();
  const walk = (value: unknown, depth: number) => {
    if (depth > 8 || value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    const record = value as Record<string, unknown>;
    for (const key of Object.getOwnPropertyNames(value)) {
      const field = record[key];
      try {
        if (typeof field === 'string') record[key] = redactUrlsIn(field, urls);
        else if (Array.isArray(field)) record[key] = field.map((v: unknown) => (typeof v === 'string' ? redactUrlsIn(v, urls) : (walk(v, depth + 1), v)));
        else walk(field, depth + 1);
      } catch {
        // a read-only field: left as it is
      }
    }
  };
  walk(err, 0);
  return err;
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
