import type { PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import type { Redis } from '../infra/redis.ts';

/**
 * The chain's head block as the worker's block watcher last saw it, shared through
 * Redis: placing an order costs the node nothing, however many orders a drop brings.
 * The key expires HEAD_MAX_AGE_MS after it was written, so a head nobody refreshes
 * (no worker running) is never used past that: the api then asks the node itself
 * (and shares nothing: only a watcher that keeps following the chain may).
 *
 * Also the registry of jobs waiting for a block (a payment waiting for its
 * confirmations): the watcher wakes them as soon as that block arrives instead of
 * their retry timer.
 */
type Deps = { config: Pick<AppConfig, 'queuePrefix' | 'headMaxAgeMs'>; redis: Redis };

const headKey = (prefix: string) => `${prefix}:chain-head`;
const waitingKey = (prefix: string) => `${prefix}:awaiting-block`;

/** Records `head` as the latest block seen (latest observation wins: after a reorg to a shorter chain it may go down). */
export async function publishHead({ config, redis }: Deps, head: bigint): Promise<void> {
  await redis.set(headKey(config.queuePrefix), head.toString(), 'PX', config.headMaxAgeMs);
}

/** The shared head, or null when none was seen within HEAD_MAX_AGE_MS (or Redis is unreachable). */
export async function sharedHead({ config, redis }: Deps): Promise<bigint | null> {
  const value = await redis.get(headKey(config.queuePrefix)).catch(() => null);
  return value && /^\d+$/.test(value) ? BigInt(value) : null;
}

/**
 * The head block: the shared one while it is fresh, otherwise the node's. The shared
 * one lags the node by a poll (BLOCK_POLL_MS) while the watcher runs, by at most
 * HEAD_MAX_AGE_MS if it stalls; callers use it where a lower head only makes a check
 * more lenient (an order's `placedAtBlock`).
 */
export async function chainHead(deps: Deps & { chain: PublicClient }): Promise<bigint> {
  return (await sharedHead(deps)) ?? deps.chain.getBlockNumber({ cacheTime: 0 });
}

/** Registers job `jobId` as waiting for block `block`. */
export async function awaitBlock({ config, redis }: Deps, jobId: string, block: bigint): Promise<void> {
  await redis.zadd(waitingKey(config.queuePrefix), block.toString(), jobId);
}

// Takes the members due by the head atomically, so of several watchers one wakes each job.
const TAKE_DUE = `local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1000)
if #ids > 0 then redis.call('ZREM', KEYS[1], unpack(ids)) end
return ids`;

/** The ids of jobs waiting for a block up to `head`, removed from the registry (each returned to one caller only). */
export async function takeDue({ config, redis }: Deps, head: bigint): Promise<string[]> {
  return (await redis.eval(TAKE_DUE, 1, waitingKey(config.queuePrefix), head.toString())) as string[];
}
