import { enqueue, sweepPayments } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * Re-enqueues reported/found payments that have no live job, and unsent receipts and
 * cashout notices (deterministic job ids: one already queued is not added twice).
 */
export const paymentSweep: Processor<'payment-sweep'> = async (_job, { runtime, logger }) => {
  const { pending, receipts, cashouts } = await sweepPayments(runtime.db, new Date(), runtime.config.sweepStaleMs);
  let requeued = 0;
  for (const p of pending) {
    const jobId = `verify-${p.txHash}`;
    const existing = await runtime.queues['payment-verify'].getJob(jobId);
    const state = existing ? await existing.getState() : 'missing';
    if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') continue;
    if (existing) await existing.remove().catch(() => {});
    await enqueue(runtime.queues, 'payment-verify', { paymentId: p.id, txHash: p.txHash }, { jobId });
    requeued++;
  }
  for (const orderId of receipts) {
    await enqueue(runtime.queues, 'email', { kind: 'order-receipt', orderId }, { jobId: `receipt-${orderId}` });
  }
  for (const cashoutId of cashouts) {
    await enqueue(runtime.queues, 'email', { kind: 'cashout-notice', cashoutId }, { jobId: `cashout-${cashoutId}` });
  }
  if (requeued) logger.warn({ msg: 'sweeper re-enqueued payments with no live job', count: requeued });
  return { requeued, receipts: receipts.length, cashouts: cashouts.length };
};
