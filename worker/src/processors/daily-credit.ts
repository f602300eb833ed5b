import { runDailyCredit } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * Credits every running package's daily credit up to now (or `upTo`), from the last
 * completed run or the catch-up window, whichever is earlier; safe to rerun.
 */
export const dailyCredit: Processor<'daily-credit'> = async (job, { runtime, logger }) => {
  const upTo = job.data.upTo ? new Date(job.data.upTo) : new Date();
  const result = await runDailyCredit(runtime, upTo);
  logger.info({ msg: 'daily credit', entries: result.entries, amount: result.amount.toFixed(2), items: result.items, keys: result.keys, since: result.since.toISOString(), up_to: upTo.toISOString() });
  if (result.failed.length > 0) {
    // The others were credited; the job fails so it is retried and seen in the dashboard.
    logger.error({ msg: 'daily credit failed for some orders', failed: result.failed.slice(0, 20), count: result.failed.length });
    throw new Error(`daily credit failed for ${result.failed.length} order(s); the rest were credited`);
  }
  return { entries: result.entries, amount: result.amount.toFixed(2), items: result.items };
};
