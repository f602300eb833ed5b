import { DelayedError } from 'bullmq';
import { jobs, verifyPayout } from '@shop/core';
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
  if (verdict.state === 'refused') {
    log.warn({ msg: 'payout hash refused', reason: verdict.reason });
    // Replaced (the same nonce): the replacement is checked at once.
    if (verdict.next) await jobs.checkPayout(runtime.queues, verdict.next);
  }
  if (verdict.state === 'accepted') {
    log.info({ msg: 'payout verified', kind: verdict.target.kind, id: verdict.target.id });
    if (verdict.notify) await jobs.sendPayoutNotice(runtime.queues, verdict.target);
  }
  return verdict;
};
