import { runDepositSweeper } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * The deposit sweeper (core/src/deposit-sweeper/sweeper.ts), every SWEEP_INTERVAL_MS and on
 * demand: follows the sweeps on their way, then sweeps the deposit addresses of settled
 * orders to the receiving address in one batch, within the gas price ceiling and budget.
 * What it did and why it waits is in its status (Redis; the admin page and metrics read
 * it) and in the log. A failed run is retried by the next one (safe to run twice).
 */
export const depositSweep: Processor<'deposit-sweep'> = async (_job, { runtime, logger }) => {
  const run = await runDepositSweeper({ ...runtime, logger });
  return { state: run.state, reason: run.reason, followed: run.followed, ...(run.sent ? { sent: run.sent } : {}) };
};
