import { DelayedError } from 'bullmq';
import { handOn, verifyPayout } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * One job per payout check (an admin's "paid in this transaction" for a cashout or a
 * refund): read it on chain and accept or refuse it; while it may still land (not mined,
 * not confirmed, not traceable yet), wait (moved to delayed, not a failed attempt), as
 * long as it takes. A node error fails the attempt (retried; the sweeper queues the
 * check again): it never refuses. Accepted: the buyer's e-mail with the hash is queued.
 */
export const payoutVerify: Processor<'payout-verify'> = async (job, { runtime, logger, token }) => {
  const log = logger.child({ check_id: job.data.checkId });
  const verdict = await verifyPayout(runtime, job.data.checkId);
  if (verdict.state === 'wait') {
    log.debug({ msg: 'payout not final yet', reason: verdict.reason });
    await job.moveToDelayed(Date.now() + verdict.retryInMs, token);
    throw new DelayedError();
  }
  // Refused because replaced (the same nonce): the replacement is checked at once.
  // Accepted: the notice to the person paid.
  if (verdict.state === 'refused') log.warn({ msg: 'payout hash refused', reason: verdict.reason });
  if (verdict.state === 'accepted') log.info({ msg: 'payout verified', kind: verdict.target.kind, id: verdict.target.id });
  if (verdict.state !== 'skipped') await handOn(runtime.queues, verdict.effects, (err, effect) => log.warn({ err, effect: effect.kind }, 'not handed on; the sweeper will'));
  return verdict;
};
