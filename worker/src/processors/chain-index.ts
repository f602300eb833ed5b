import { randomUUID } from 'node:crypto';
import { indexAndQueue, type Logger, type Runtime } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/** While halted, the reason is logged again at most this often (the tick runs every second). */
const HALT_LOG_EVERY_MS = 60_000;
let lastHaltLog = 0;

/**
 * The index lock's time to live, renewed while the run goes on: a worker that dies
 * mid-run (killed, its machine gone) holds up indexing for at most this long. The
 * checkpoint guard (indexer.ts) covers a run that outlives its lock.
 */
const RUN_LOCK_MS = 10_000;
const RENEW_EVERY_MS = 3_000;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/**
 * A tick of the indexer: scan new blocks, queue verification of what it found. Runs
 * come from the schedule and from each new block, on every worker: one runs at a time
 * (a Redis lock); a run that finds the lock taken does nothing, the one under way or
 * the next tick covers its blocks.
 */
export const chainIndex: Processor<'chain-index'> = async (_job, { runtime, logger }) => {
  const lock = `${runtime.config.queuePrefix}:lock:chain-index`;
  const token = randomUUID();
  if ((await runtime.redis.set(lock, token, 'PX', RUN_LOCK_MS, 'NX')) !== 'OK') return { skipped: 'another index run is under way' };
  const renew = setInterval(() => void runtime.redis.eval(RENEW, 1, lock, token, RUN_LOCK_MS).catch(() => {}), RENEW_EVERY_MS);
  try {
    return await indexTick(runtime, logger);
  } finally {
    clearInterval(renew);
    await runtime.redis.eval(RELEASE, 1, lock, token).catch(() => {});
  }
};

async function indexTick(runtime: Runtime, logger: Logger) {
  const result = await indexAndQueue({ ...runtime, logger }, { startBlock: runtime.config.indexerStartBlock });
  if (result.halted) {
    if (Date.now() - lastHaltLog > HALT_LOG_EVERY_MS) {
      lastHaltLog = Date.now();
      logger.error({ msg: 'indexer halted: run npm run indexer:resume once the cause is fixed (README, Operating it)', reason: result.halted });
    }
    return { halted: result.halted };
  }
  if (result.behind) logger.warn({ msg: 'the node is behind the indexer checkpoint; waiting for it', blocks_behind: result.behind });
  if (result.transfers.length || result.reorgDepth) {
    logger.info({ msg: 'indexed', from: result.from.toString(), to: result.to.toString(), transfers: result.transfers.length, reorg_depth: result.reorgDepth });
  }
  return { to: result.to.toString(), transfers: result.transfers.length };
}
