import { DelayedError } from 'bullmq';
import { relayAuthorization } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * One job per signed payment (POST /api/orders/:id/authorization): sends it from the relay
 * wallet and follows its transaction to the end (core/src/relay/relay.ts). While it waits
 * (the fee above the ceiling, the budget spent, its transaction not mined or not deep
 * enough) the job moves to delayed, not a failed attempt, as long as it takes; the row
 * says why. A node error fails the attempt (retried; the payment sweep queues it again).
 */
export const paymentRelay: Processor<'payment-relay'> = async (job, { runtime, logger, token }) => {
  const log = logger.child({ authorization_id: job.data.authorizationId });
  const step = await relayAuthorization({ ...runtime, logger: log }, job.data.authorizationId);
  if (step.state === 'wait') {
    await job.moveToDelayed(Date.now() + step.retryInMs, token);
    throw new DelayedError();
  }
  return step;
};
