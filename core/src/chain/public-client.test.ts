import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../infra/logger.ts';
import { isNodeFailure } from './errors.ts';
import { redactNodeUrl } from '../infra/secret-urls.ts';
import { createChainClient } from './public-client.ts';

/**
 * A provider's URL carries its API key (in the path, the query or as credentials), and
 * viem writes the request URL into its errors: no error that leaves the chain client,
 * and no log line, may carry it.
 */
const KEY = 'k3y-0f-th3-pr0v1d3r';
let server: Server;
let base: string;
beforeAll(async () => {
  // A node that answers every request with an HTTP error, as a provider over its rate limit does.
  server = createServer((_req, res) => {
    res.writeHead(429, { 'content-type': 'text/plain' });
    res.end('slow down');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Everything an error carries that a log or a stored reason could show. */
function everything(err: unknown): string {
  const seen = new Set<unknown>();
  const parts: string[] = [];
  const walk = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || value === undefined || seen.has(value)) return;
    if (typeof value === 'string') return void parts.push(value);
    if (typeof value !== 'object') return;
    seen.add(value);
    for (const key of Object.getOwnPropertyNames(value)) walk((value as Record<string, unknown>)[key], depth + 1);
  };
  walk(err, 0);
  return parts.join('\n');
}

describe("the node's URL", () => {
  for (const [where, url] of [
    ['path', () => `${base}/v3/${KEY}`],
    ['query', () => `${base}/?apikey=${KEY}`],
    ['credentials', () => `http://user:${KEY}@127.0.0.1:${(server.address() as AddressInfo).port}/`],
  ] as const) {
    it(`never leaves the chain client in an error (a key in the ${where})`, async () => {
      const chain = createChainClient(url(), { retryCount: 0 });
      const err = await chain.getBlockNumber({ cacheTime: 0 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      // Still a node failure to the code that decides (a 503, a retry).
      expect(isNodeFailure(err)).toBe(true);
      expect(everything(err)).not.toContain(KEY);
      expect(everything(err)).toContain('127.0.0.1');
    });
  }

  it('is shown as its scheme and host only', () => {
    expect(redactNodeUrl(`https://mainnet.infura.io/v3/${KEY}`)).toBe('https://mainnet.infura.io/…');
    expect(redactNodeUrl(`wss://user:${KEY}@eth.example.com:8546`)).toBe('wss://eth.example.com:8546');
    expect(redactNodeUrl('not a url')).toBe('[node URL]');
  });

  it("never reaches a log line, whatever error carries it", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const url = `${base}/v2/${KEY}`;
    const logger = createLogger({ level: 'info', secretUrls: [url] }, sink);
    // An error made elsewhere (another library) that names the URL.
    logger.error({ err: new Error(`request to ${url} failed`), msg: 'node failed' });
    logger.warn({ msg: 'node failed', err: Object.assign(new Error('failed'), { url, cause: new Error(`GET ${url}`) }) });
    expect(lines).toHaveLength(2);
    expect(lines.join('')).not.toContain(KEY);
    expect(lines.join('')).toContain('127.0.0.1');
  });
});
