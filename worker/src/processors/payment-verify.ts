import { DelayedError } from 'bullmq';
import { getEthUsd, jobs, verifyPayment } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/** One job per transfer (reported or indexed): verify it on chain, count it, or wait. */
export const paymentVerify: Processor<'payment-verify'> = async (job, { runtime, logger, token }) => {
  const log = logger.child({ payment_id: job.data.paymentId, tx_hash: job.data.txHash });
  const result = await verifyPayment({ ...runtime, logger: log, currentAnswer: async () => (await getEthUsd(runtime)).answer }, job.data.paymentId);
  if (result.state === 'wait') {
    log.debug({ msg: 'payment not final yet', reason: result.reason });
    await job.moveToDelayed(Date.now() + result.retryInMs, token);
    throw new DelayedError();
  }
  log.info({ msg: 'payment verified', status: result.status, order_id: result.orderId, reason: result.reason, paid_now: result.paidNow ?? false });
  if (result.paidNow && result.orderId) await jobs.sendReceipt(runtime.queues, result.orderId);
  return result;
};
