import { pingDb, pingRedis, queueNames, redisReady, withTimeout } from '@shop/core';
import type { AppDeps } from '../../deps.ts';

type Check = { ok: boolean; error?: string } & Record<string, unknown>;

export type Health = {
  status: 'ok' | 'degraded';
  checks: { database: Check; redis: Check; chain: Check; queues: Check };
};

const TIMEOUT_MS = 2_000;

function failure(err: unknown): Check {
  return { ok: false, error: err instanceof Error ? err.message : String(err) };
}

async function checkChain({ chain, config }: AppDeps): Promise<Check> {
  try {
    const [chainId, blockNumber] = await withTimeout(Promise.all([chain.getChainId(), chain.getBlockNumber()]), TIMEOUT_MS);
    if (chainId !== config.chainId) return { ok: false, chainId, error: `expected chain id ${config.chainId}` };
    return { ok: true, chainId, blockNumber: blockNumber.toString() };
  } catch (err) {
    return failure(err);
  }
}

async function checkQueues({ queues, redis }: AppDeps): Promise<Check> {
  if (!(await redisReady(redis, TIMEOUT_MS))) return { ok: false, error: 'redis is not connected' };
  try {
    const counts = await withTimeout(
      Promise.all(
        queueNames.map(async (name) => {
          const queue = queues[name];
          const [jobs, workers] = await Promise.all([
            queue.getJobCounts('waiting', 'active', 'delayed', 'failed'),
            queue.getWorkersCount(),
          ]);
          return [name, { ...jobs, workers }] as const;
        }),
      ),
      TIMEOUT_MS,
    );
    return { ok: true, queues: Object.fromEntries(counts) };
  } catch (err) {
    return failure(err);
  }
}

export async function getHealth(deps: AppDeps): Promise<Health> {
  const [database, redis, chain, queues] = await Promise.all([
    pingDb(deps.db, TIMEOUT_MS).then((ok): Check => (ok ? { ok } : { ok, error: 'database did not answer' })),
    pingRedis(deps.redis, TIMEOUT_MS).then((ok): Check => (ok ? { ok } : { ok, error: 'redis did not answer' })),
    checkChain(deps),
    checkQueues(deps),
  ]);
  const checks = { database, redis, chain, queues };
  const status = Object.values(checks).every((c) => c.ok) ? 'ok' : 'degraded';
  return { status, checks };
}
