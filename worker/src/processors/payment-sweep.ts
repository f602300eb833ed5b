import { checkingPayouts, jobIds, jobs, sweepPayments } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * Re-queues reported/found payments that have no live job, and unsent receipts and
 * cashout notices, and payout checks still waiting (deterministic job ids: one already queued is not added twice).
 */
export const paymentSweep: Processor<'payment-sweep'> = async (_job, { runtime, logger }) => {
  const { pending, receipts, cashouts, payoutNotices } = await sweepPayments(runtime.db, new Date(), runtime.config.sweepStaleMs);
  let requeued = 0;
  for (const p of pending) {
    const existing = await runtime.queues['payment-verify'].getJob(jobIds.verify(p.txHash));
    const state = existing ? await existing.getState() : 'missing';
    if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') continue;
    if (existing) await existing.remove().catch(() => {});
    await jobs.verifyPayment(runtime.queues, { paymentId: p.id, txHash: p.txHash });
    requeued++;
  }
  for (const orderId of receipts) await jobs.sendReceipt(runtime.queues, orderId);
  for (const cashoutId of cashouts) await jobs.sendCashoutNotice(runtime.queues, cashoutId);
  for (const target of payoutNotices) await jobs.sendPayoutNotice(runtime.queues, target);
  // Payout checks whose job was lost (Redis restarted empty): a live one is not added twice.
  for (const checkId of await checkingPayouts(runtime.db)) await jobs.checkPayout(runtime.queues, checkId);
  if (requeued) logger.warn({ msg: 'sweeper re-enqueued payments with no live job', count: requeued });
  return { requeued, receipts: receipts.length, cashouts: cashouts.length };
};
