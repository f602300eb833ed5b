import { jobIds, jobs, requeue, sweepPayments } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * Re-queues reported/found payments that have no live job, and unsent receipts and
 * cashout notices, and payout checks still waiting (deterministic job ids: one already queued is not added twice).
 */
export const paymentSweep: Processor<'payment-sweep'> = async (_job, { runtime, logger }) => {
  const { pending, receipts, cashouts, payoutNotices, checking } = await sweepPayments(runtime.db, new Date(), runtime.config.sweepStaleMs);
  let requeued = 0;
  for (const p of pending) {
    if (await requeue(runtime.queues['payment-verify'], jobIds.verify(p.txHash), () => jobs.verifyPayment(runtime.queues, { paymentId: p.id, txHash: p.txHash }))) requeued++;
  }
  for (const orderId of receipts) await jobs.sendReceipt(runtime.queues, orderId);
  for (const cashoutId of cashouts) await jobs.sendCashoutNotice(runtime.queues, cashoutId);
  for (const target of payoutNotices) await jobs.sendPayoutNotice(runtime.queues, target);
  // Payout checks still waiting whose job was lost (Redis restarted empty) or failed for good.
  for (const checkId of checking) {
    if (await requeue(runtime.queues['payout-verify'], jobIds.payoutCheck(checkId), () => jobs.checkPayout(runtime.queues, checkId))) requeued++;
  }
  if (requeued) logger.warn({ msg: 'sweeper re-enqueued work with no live job', count: requeued });
  return { requeued, receipts: receipts.length, cashouts: cashouts.length };
};
