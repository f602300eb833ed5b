import { DelayedError, type Job } from 'bullmq';
import { awaitBlock, handOn, sharedHead, verifyPayment, type Runtime } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/** One job per transfer (reported or indexed): verify it on chain, count it, or wait. */
export const paymentVerify: Processor<'payment-verify'> = async (job, { runtime, logger, token }) => {
  const log = logger.child({ payment_id: job.data.paymentId, tx_hash: job.data.txHash });
  const result = await verifyPayment({ ...runtime, logger: log, currentAnswer: runtime.assetPrices.valuation }, job.data.paymentId);
  if (result.state === 'wait') {
    log.debug({ msg: 'payment not final yet', reason: result.reason });
    // While a block watcher shares the head, it wakes the job when its block comes; the
    // timer is then only a fallback, and a slow one (it would cost the node a read each time).
    const head = result.atBlock !== undefined ? await sharedHead(runtime) : null;
    const at = head === null ? null : result.atBlock === 'next' ? head + 1n : (result.atBlock as bigint);
    // A block the watcher has already seen but this node had not (a node that lags the
    // watcher's): woken now, it would find the same; its timer brings it back.
    const watched = at !== null && head! < at;
    await job.moveToDelayed(Date.now() + (watched ? Math.max(result.retryInMs, WATCHED_FALLBACK_MS) : result.retryInMs), token);
    if (watched) await wakeAtBlock(runtime, job, at);
    throw new DelayedError();
  }
  log.info({ msg: 'payment verified', status: result.status, order_id: result.orderId, reason: result.reason, effects: result.effects?.map((e) => e.kind) ?? [] });
  await handOn(runtime.queues, result.effects ?? [], (err, effect) => log.warn({ err, effect: effect.kind }, 'not handed on; the sweeper will'));
  return result;
};

const WATCHED_FALLBACK_MS = 10_000;

/**
 * Registers the delayed job with the block watcher (block-watcher.ts), which promotes it
 * when block `at` arrives; if that block came while it registered, the job is promoted
 * now (once: its next run finds the block seen and waits on its timer if the node lags).
 */
async function wakeAtBlock(runtime: Runtime, job: Job, at: bigint): Promise<void> {
  if (!job.id) return;
  await awaitBlock(runtime, job.id, at);
  const now = await sharedHead(runtime);
  if (now !== null && now >= at) await job.promote().catch(() => {});
}
