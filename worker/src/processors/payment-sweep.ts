import { handOn, jobIds, jobs, releaseHeldCashouts, requeue, sweepPayments, unsentNotices, type Effect } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * Re-queues reported/found payments that have no live job, and unsent receipts, cashout
 * notices and security notices, payout checks and signed payments still waiting (deterministic job ids:
 * one already queued is not added twice). Hands the cashouts whose new-wallet wait is
 * over to the admins (cashout-holds.ts).
 */
export const paymentSweep: Processor<'payment-sweep'> = async (_job, { runtime, logger }) => {
  const now = new Date();
  // Held cashouts are priced again when released (cashout-holds.ts); no price now: valued when paid.
  const ethUsdNow = await runtime.prices.price().catch(() => null);
  const { released, effects: releasedNotices } = await releaseHeldCashouts(runtime.db, now, ethUsdNow);
  if (released.length) logger.info({ msg: 'held cashouts released to the admins', count: released.length });
  const { pending, receipts, cashouts, payoutNotices, checking, relaying } = await sweepPayments(runtime.db, now, runtime.config.sweepStaleMs);
  const notices = await unsentNotices(runtime.db, now, 500);
  let requeued = 0;
  for (const p of pending) {
    if (await requeue(runtime.queues['payment-verify'], jobIds.verify(p.txHash, p.depositAddress, p.logIndex), () => jobs.verifyPayment(runtime.queues, { paymentId: p.id, txHash: p.txHash, depositAddress: p.depositAddress, logIndex: p.logIndex }))) requeued++;
  }
  // The outbox's relay: what a change recorded and no hand-off queued (effects.ts).
  const unsent: Effect[] = [
    ...releasedNotices,
    ...notices.map((noticeId) => ({ kind: 'security-notice' as const, noticeId })),
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
  // Signed payments the relay has not finished whose job was lost or failed for good.
  for (const id of relaying) {
    if (await requeue(runtime.queues['payment-relay'], jobIds.relay(id), () => jobs.relayAuthorization(runtime.queues, id))) requeued++;
  }
  if (requeued) logger.warn({ msg: 'sweeper re-enqueued work with no live job', count: requeued });
  return { requeued, receipts: receipts.length, cashouts: cashouts.length, released: released.length, notices: notices.length };
};
