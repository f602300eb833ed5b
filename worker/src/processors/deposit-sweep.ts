import { jobs, runDepositSweeper } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * The deposit sweeper (core/src/deposit-sweeper/sweeper.ts), every SWEEP_INTERVAL_MS and on
 * demand: follows the sweeps on their way, then sweeps the deposit addresses of settled
 * orders to the receiving address in one batch, and their accepted tokens in another,
 * within the gas price ceiling and budget.
 * What it did and why it waits is in its status (Redis; the admin page and metrics read
 * it) and in the log. A failed run is retried by the next one (safe to run twice).
 *
 * A run that sent a sweep asks for another SWEEP_FOLLOW_MS later to follow it, and that
 * one for another while a sweep is still on its way, until the scheduled run would come
 * anyway: a sweep mined is confirmed (and the admin page says so) within seconds, not at
 * the next scheduled run ten minutes on.
 */
export const depositSweep: Processor<'deposit-sweep'> = async (job, { runtime, logger }) => {
  const run = await runDepositSweeper({ ...runtime, logger });
  const { sweepFollowMs, sweepIntervalMs } = runtime.config;
  const followed = job.data.follow ?? 0;
  const sent = run.sent !== undefined || run.tokenSent !== undefined;
  const onTheWay = sent || (followed > 0 && run.followed.waiting > 0);
  const next = sent ? 1 : followed + 1;
  if (onTheWay && next * sweepFollowMs < sweepIntervalMs) await jobs.followSweeps(runtime.queues, next, sweepFollowMs);
  return {
    state: run.state,
    reason: run.reason,
    followed: run.followed,
    ...(run.sent ? { sent: run.sent } : {}),
    ...(run.tokenSent ? { tokenSent: run.tokenSent } : {}),
    ...(onTheWay ? { follow: next } : {}),
  };
};
