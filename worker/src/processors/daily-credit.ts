import { creditDaily } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/** Credits every paid order's daily package credit up to now (or `upTo`); safe to rerun. */
export const dailyCredit: Processor<'daily-credit'> = async (job, { runtime, logger }) => {
  const upTo = job.data.upTo ? new Date(job.data.upTo) : new Date();
  const result = await creditDaily(runtime.db, upTo);
  logger.info({ msg: 'daily credit', entries: result.entries, amount: result.amount.toFixed(2), up_to: upTo.toISOString() });
  return { entries: result.entries, amount: result.amount.toFixed(2) };
};
