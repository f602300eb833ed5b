import { handOn, jobIds, jobs, requeue, sweepPayments, type Effect } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * Re-queues reported/found payments that have no live job, and unsent receipts and
 * cashout notices, and payout checks still waiting (deterministic job ids: one already queued is not added twice).
 */
export const paymentSweep: Processor<'payment-sweep'> = async (_job, { runtime, logger }) => {
  const { pending, receipts, cashouts, payoutNotices, checking } = await sweepPayments(runtime.db, new Date(), runtime.config.sweepStaleMs);
  let requeued = 0;
  for (const p of pending) {
    if (await requeue(runtime.queues['payment-verify'], jobIds.verify(p.txHash, p.depositAddress), () => jobs.verifyPayment(runtime.queues, { paymentId: p.id, txHash: p.txHash, depositAddress: p.depositAddress }))) requeued++;
  }
  // The outbox's relay: what a change recorded and no hand-off queued (effects.ts).
  const unsent: Effect[] = [
    ...receipts.map((orderId) => ({ kind: 'receipt' as const, orderId })),
    ...cashouts.map((cashoutId) => ({ kind: 'cashout-notice' as const, cashoutId })),
    ...payoutNotices.map((target) => ({ kind: 'payout-notice' as const, target })),
  ];
  await handOn(runtime.queues, unsent, (err) => {
    throw err; // the sweep fails and runs again
  });
  // Payout checks still waiting whose job was lost (Redis restarted empty) or failed for good.
  for (const checkId of checking) {
    if (await requeue(runtime.queues['payout-verify'], jobIds.payoutCheck(checkId), () => jobs.checkPayout(runtime.queues, checkId))) requeued++;
  }
  if (requeued) logger.warn({ msg: 'sweeper re-enqueued work with no live job', count: requeued });
  return { requeued, receipts: receipts.length, cashouts: cashouts.length };
};
