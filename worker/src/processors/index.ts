import type { ProcessorMap } from '../worker-manager.ts';
import { chainIndex } from './chain-index.ts';
import { depositSweep } from './deposit-sweep.ts';
import { orderExpire } from './order-expire.ts';
import { paymentSweep } from './payment-sweep.ts';
import { paymentVerify } from './payment-verify.ts';
import { email } from './email.ts';
import { dailyCredit } from './daily-credit.ts';
import { reconcileJob } from './reconcile.ts';
import { retention } from './retention.ts';
import { payoutVerify } from './payout-verify.ts';
import { paymentRelay } from './payment-relay.ts';
import { webhookDeliver, webhookDispatch } from './webhooks.ts';

/** Every processor the worker runs, by queue name (one file a job under processors/). */
export const processors: ProcessorMap = {
  'payment-verify': { process: paymentVerify, concurrency: 16 },
  'chain-index': { process: chainIndex },
  'payment-sweep': { process: paymentSweep },
  'order-expire': { process: orderExpire },
  email: { process: email, concurrency: 4 },
  'daily-credit': { process: dailyCredit },
  reconcile: { process: reconcileJob },
  retention: { process: retention },
  'payout-verify': { process: payoutVerify, concurrency: 4 },
  'webhook-dispatch': { process: webhookDispatch },
  'webhook-deliver': { process: webhookDeliver, concurrency: 8 },
  'deposit-sweep': { process: depositSweep },
  'payment-relay': { process: paymentRelay, concurrency: 4 },
};
