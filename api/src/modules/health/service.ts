import { BaseError, HttpRequestError, TimeoutError } from 'viem';
import { indexerHalt, latestReconciliation, pingDb, pingRedis, queueNames, redisReady, withTimeout } from '@shop/core';
import type { HealthJson } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';

/** One dependency: whether it works, and what an operator may see about it. */
type Check = { ok: boolean; detail: Record<string, unknown> };
/** What anyone may see: ok or degraded per dependency, nothing more (the contract's HealthJson without details). */
export type PublicHealth = Omit<HealthJson, 'details'>;
type Dependency = keyof PublicHealth['checks'];
/** What admins and the metrics scraper see: the details (never a URL, key or raw error text). */
export type HealthDetails = PublicHealth & {
  details: Record<Dependency, Record<string, unknown>> & { reconciliation: Record<string, unknown>; depositFactory: Record<string, unknown> };
};

/**
 * A failure in words safe to show: viem's and the drivers' messages carry the RPC URL
 * (with its API key) or connection strings, so only the kind of failure is kept.
 */
export function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof HttpRequestError) return `request failed${err.status ? ` (HTTP ${err.status})` : ''}`;
  if (err instanceof TimeoutError || (err instanceof Error && /timed out/i.test(err.message))) return `no answer within ${timeoutMs} ms`;
  if (err instanceof BaseError) return `request failed (${err.name})`;
  return 'unreachable';
}

async function checkChain({ chain, config, db }: AppDeps): Promise<Check> {
  const timeoutMs = config.healthTimeoutMs;
  const halt = await indexerHalt(db, config.chainId).catch(() => null);
  try {
    const [chainId, blockNumber] = await withTimeout(Promise.all([chain.getChainId(), chain.getBlockNumber()]), timeoutMs);
    const detail: Record<string, unknown> = { chainId, blockNumber: blockNumber.toString() };
    if (chainId !== config.chainId) return { ok: false, detail: { ...detail, error: `the node serves chain id ${chainId}, not ${config.chainId}` } };
    if (halt) {
      return { ok: false, detail: { ...detail, error: 'indexing and payment verification are halted', indexer: { halted: true, since: halt.since.toISOString(), reason: halt.reason } } };
    }
    return { ok: true, detail: { ...detail, indexer: { halted: false } } };
  } catch (err) {
    return { ok: false, detail: { error: describeFailure(err, timeoutMs), ...(halt ? { indexer: { halted: true, reason: halt.reason } } : {}) } };
  }
}

async function checkQueues({ config, queues, redis }: AppDeps): Promise<Check> {
  const timeoutMs = config.healthTimeoutMs;
  if (!(await redisReady(redis, timeoutMs))) return { ok: false, detail: { error: 'redis is not connected' } };
  try {
    const counts = await withTimeout(
      Promise.all(
        queueNames.map(async (name) => {
          const queue = queues[name];
          const [jobs, workers] = await Promise.all([queue.getJobCounts('waiting', 'active', 'delayed', 'failed'), queue.getWorkersCount()]);
          return [name, { ...jobs, workers }] as const;
        }),
      ),
      timeoutMs,
    );
    return { ok: true, detail: { queues: Object.fromEntries(counts) } };
  } catch (err) {
    return { ok: false, detail: { error: describeFailure(err, timeoutMs) } };
  }
}

export async function getHealth(deps: AppDeps): Promise<HealthDetails> {
  const timeoutMs = deps.config.healthTimeoutMs;
  const [database, redis, chain, queues] = await Promise.all([
    pingDb(deps.db, timeoutMs).then((ok): Check => ({ ok, detail: ok ? {} : { error: 'did not answer' } })),
    pingRedis(deps.redis, timeoutMs).then((ok): Check => ({ ok, detail: ok ? {} : { error: 'did not answer' } })),
    checkChain(deps),
    checkQueues(deps),
  ]);
  const all = { database, redis, chain, queues };
  const entries = Object.entries(all) as [Dependency, Check][];
  // The books are not a dependency: discrepancies are an alert, not an outage.
  const books = await latestReconciliation(deps.db).catch(() => undefined);
  const reconciliation = books === undefined
    ? { error: 'not read' }
    : books === null
      ? { lastRun: null }
      : { lastRun: books.startedAt.toISOString(), discrepancies: books.discrepancies.length, checks: [...new Set(books.discrepancies.map((d) => d.check))] };
  return {
    status: entries.every(([, c]) => c.ok) ? 'ok' : 'degraded',
    checks: Object.fromEntries(entries.map(([k, c]) => [k, c.ok ? 'ok' : 'degraded'])) as PublicHealth['checks'],
    // Nor is the deposit factory: refused, orders are placed without a deposit address and paid by their tag.
    details: { ...(Object.fromEntries(entries.map(([k, c]) => [k, c.detail])) as Record<Dependency, Record<string, unknown>>), reconciliation, depositFactory: deps.depositFactory.verdict() },
  };
}

export function publicHealth({ status, checks }: HealthDetails): PublicHealth {
  return { status, checks };
}
