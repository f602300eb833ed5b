import { Queue, type JobsOptions, type ConnectionOptions } from 'bullmq';
import { z } from 'zod';

/**
 * The one registry of queue names and job payloads, shared by producers (api, worker)
 * and consumers (worker processors). Payloads carry ids only; a job reads the rest
 * from the database. Custom job ids never contain ':' (BullMQ reserves it).
 */
const uuid = z.string().uuid();
const txHash = z.string().regex(/^0x[0-9a-f]{64}$/);

export const queueDefinitions = {
  'payment-verify': {
    // depositAddress: the order's deposit address it reached (one transaction may pay several);
    // logIndex: the token Transfer log that delivered it (one transaction may carry several).
    payload: z.object({ paymentId: uuid, txHash, depositAddress: z.string().regex(/^0x[0-9a-f]{40}$/).nullish(), logIndex: z.number().int().nonnegative().nullish() }),
    defaults: { attempts: 30, backoff: { type: 'exponential', delay: 2_000 } },
  },
  'chain-index': {
    payload: z.object({}).strict(),
    // A tick runs every second: keep only the recent history.
    defaults: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
  },
  'payment-sweep': {
    payload: z.object({}).strict(),
    defaults: { attempts: 3, backoff: { type: 'fixed', delay: 1_000 } },
  },
  'order-expire': {
    payload: z.object({}).strict(),
    defaults: { attempts: 3, backoff: { type: 'fixed', delay: 1_000 } },
  },
  reconcile: {
    // 'changes' (the schedule every few minutes): what changed since the last run;
    // 'audit' (weekly, and on an admin's request): everything, in batches.
    payload: z.object({ scope: z.enum(['audit', 'changes']).optional() }).strict(),
    defaults: { attempts: 1, removeOnComplete: { count: 50 }, removeOnFail: { count: 50 } },
  },
  'daily-credit': {
    payload: z.object({ upTo: z.string().datetime().optional() }).strict(),
    defaults: { attempts: 5, backoff: { type: 'exponential', delay: 5_000 } },
  },
  email: {
    payload: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('order-receipt'), orderId: uuid }),
      z.object({ kind: z.literal('cashout-notice'), cashoutId: uuid }),
      z.object({ kind: z.literal('cashout-paid'), cashoutId: uuid }),
      z.object({ kind: z.literal('refund-paid'), refundId: uuid }),
      // The link to set a new password, and the notice once it was set. The job carries
      // the reset's id only: the token never sits in Redis or the queue dashboard.
      z.object({ kind: z.literal('password-reset'), resetId: uuid }),
      z.object({ kind: z.literal('password-changed'), resetId: uuid }),
      // A security e-mail to an account's owner (a factor, the password or e-mail, a cashout).
      z.object({ kind: z.literal('security-notice'), noticeId: uuid }),
    ]),
    defaults: { attempts: 10, backoff: { type: 'exponential', delay: 5_000 } },
  },
  // Reading an admin's payout hash on chain; waiting for it to be mined and confirmed
  // moves the job to delayed (not an attempt), the sweeper re-queues a lost or failed one.
  'payout-verify': {
    payload: z.object({ checkId: uuid }).strict(),
    // Node errors: ~8 minutes of retries, then the sweeper queues it again (a node error
    // never refuses a check).
    defaults: { attempts: 8, backoff: { type: 'exponential', delay: 2_000 } },
  },
  // Sweeps deposit addresses on to the receiving address and follows the sweeps on chain
  // (core/src/deposit-sweeper/sweeper.ts), every SWEEP_INTERVAL_MS; the next run is the retry.
  'deposit-sweep': {
    // `follow`: a run that follows a sweep just sent (the n-th since it was sent), SWEEP_FOLLOW_MS after the last.
    payload: z.object({ follow: z.number().int().min(1).optional() }).strict(),
    defaults: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
  },
  // One buyer's signed payment (EIP-3009): sent from the relay wallet and followed to its end
  // (core/src/relay/relay.ts); waiting (the fee, the budget, a block) moves it to delayed, not
  // a failed attempt. Node errors: retried; the payment sweep queues a lost one again.
  'payment-relay': {
    payload: z.object({ authorizationId: uuid }).strict(),
    defaults: { attempts: 10, backoff: { type: 'exponential', delay: 2_000 } },
  },
  // Deletes, in small batches, what the shop keeps no longer (old webhooks, ended sessions,
  // old reconciliation reports, indexed blocks no reorg needs), every RETENTION_INTERVAL_MS.
  retention: {
    payload: z.object({}).strict(),
    defaults: { attempts: 1, removeOnComplete: { count: 50 }, removeOnFail: { count: 50 } },
  },
  // Hands committed webhook events (the outbox) to webhook-deliver, every WEBHOOK_DISPATCH_MS.
  'webhook-dispatch': {
    payload: z.object({}).strict(),
    defaults: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
  },
  // One POST of one event to one endpoint: 15 attempts, exponential from
  // WEBHOOK_RETRY_BASE_MS (15 s: about 2.8 days in all; the producer sets the delay).
  'webhook-deliver': {
    payload: z.object({ deliveryId: uuid }).strict(),
    defaults: { attempts: 15 },
  },
} as const satisfies Record<string, { payload: z.ZodType; defaults: JobsOptions }>;

export type QueueName = keyof typeof queueDefinitions;
export type JobPayload<N extends QueueName> = z.infer<(typeof queueDefinitions)[N]['payload']>;
export const queueNames = Object.keys(queueDefinitions) as QueueName[];

const commonDefaults: JobsOptions = {
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  // Failed jobs stay visible to operators in the dashboard for a week.
  removeOnFail: { age: 7 * 24 * 3600 },
};

export type Queues = { [N in QueueName]: Queue<JobPayload<N>> } & {
  close(): Promise<void>;
};

export function createQueues(connection: ConnectionOptions, prefix: string): Queues {
  const entries = queueNames.map((name) => {
    const queue = new Queue(name, {
      connection,
      prefix,
      defaultJobOptions: { ...commonDefaults, ...(queueDefinitions[name].defaults as JobsOptions) },
    });
    // Errors surface through the caller's health checks; never crash on them.
    queue.on('error', () => {});
    return [name, queue] as const;
  });
  const queues = Object.fromEntries(entries) as unknown as Queues;
  Object.defineProperty(queues, 'close', {
    enumerable: false,
    value: async () => {
      await Promise.all(entries.map(([, q]) => q.close()));
    },
  });
  return queues;
}

/** Adds a job after validating its payload against the registry. */
async function enqueue<N extends QueueName>(queues: Queues, name: N, payload: JobPayload<N>, opts: JobsOptions = {}): Promise<void> {
  const data = queueDefinitions[name].payload.parse(payload) as JobPayload<N>;
  if (opts.jobId?.includes(':')) throw new Error(`job id must not contain ':' (${opts.jobId})`);
  const queue = queues[name] as unknown as Queue<JobPayload<N>>;
  await (queue as Queue).add(name, data, opts);
}

/** A transfer's key in a job id: its hash, the deposit address it reached, its Transfer log (a value transfer's ids are as before logs were keyed). */
const transferKey = (txHash: string, depositAddress?: string | null, logIndex?: number | null) =>
  `${txHash}${depositAddress ? `-${depositAddress}` : ''}${logIndex != null ? `-log${logIndex}` : ''}`;

/**
 * The job ids: deterministic, so a job asked for twice (two reports of one hash, the
 * sweeper and a report) is one job. The only place they are built.
 */
export const jobIds = {
  verify: (txHash: string, depositAddress?: string | null, logIndex?: number | null) => `verify-${transferKey(txHash, depositAddress, logIndex)}`,
  /** An index run for a new head: of several block watchers, one adds it. */
  indexAt: (head: bigint) => `head-${head}`,
  /** A fresh id: the first verification of this hash may have completed already. */
  recheck: (txHash: string, depositAddress?: string | null, logIndex?: number | null, at = Date.now()) => `recheck-${transferKey(txHash, depositAddress, logIndex)}-${at}`,
  receipt: (orderId: string) => `receipt-${orderId}`,
  cashoutNotice: (cashoutId: string) => `cashout-${cashoutId}`,
  cashoutPaid: (cashoutId: string) => `cashout-paid-${cashoutId}`,
  refundPaid: (refundId: string) => `refund-paid-${refundId}`,
  passwordReset: (resetId: string) => `password-reset-${resetId}`,
  passwordChanged: (resetId: string) => `password-changed-${resetId}`,
  securityNotice: (noticeId: string) => `security-notice-${noticeId}`,
  payoutCheck: (checkId: string) => `payout-${checkId}`,
  relay: (authorizationId: string) => `relay-${authorizationId}`,
  webhook: (deliveryId: string) => `webhook-${deliveryId}`,
  /** The on-demand audit: one at a time, however often an admin asks. */
  audit: 'reconcile-audit',
  /** A deposit sweep run asked for now (besides the schedule): one at a time. */
  depositSweep: 'deposit-sweep-now',
  /** The n-th run following a sweep on its way: one of each, however many sweeps went out. */
  sweepFollow: (n: number) => `deposit-sweep-follow-${n}`,
};

/** A payout request: a cashout or a refund. */
export type PayoutTarget = { kind: 'cashout' | 'refund'; id: string };

/** Options a producer's caller may add (never the id: that is the producer's). */
type Extra = Omit<JobsOptions, 'jobId'>;

/** The typed producers: every job the api and the worker add goes through these. */
/**
 * Adds a job again unless one with its id is live (waiting, active, delayed): a finished
 * or failed one is removed first. For the sweeper (work whose job was lost or failed for
 * good) and an admin's redelivery.
 */
export async function requeue(queue: Queue, jobId: string, add: () => Promise<void>): Promise<boolean> {
  const existing = await queue.getJob(jobId);
  const state = existing ? await existing.getState() : 'missing';
  if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') return false;
  if (existing) await existing.remove().catch(() => {});
  await add();
  return true;
}

export const jobs = {
  verifyPayment: (queues: Queues, p: { paymentId: string; txHash: string; depositAddress?: string | null; logIndex?: number | null }, extra: Extra = {}) =>
    enqueue(queues, 'payment-verify', p, { ...extra, jobId: jobIds.verify(p.txHash, p.depositAddress, p.logIndex) }),
  recheckPayment: (queues: Queues, p: { paymentId: string; txHash: string; depositAddress?: string | null; logIndex?: number | null }, extra: Extra = {}) =>
    enqueue(queues, 'payment-verify', p, { ...extra, jobId: jobIds.recheck(p.txHash, p.depositAddress, p.logIndex) }),
  sendReceipt: (queues: Queues, orderId: string, extra: Extra = {}) =>
    enqueue(queues, 'email', { kind: 'order-receipt', orderId }, { ...extra, jobId: jobIds.receipt(orderId) }),
  sendCashoutNotice: (queues: Queues, cashoutId: string, extra: Extra = {}) =>
    enqueue(queues, 'email', { kind: 'cashout-notice', cashoutId }, { ...extra, jobId: jobIds.cashoutNotice(cashoutId) }),
  sendPayoutNotice: (queues: Queues, target: PayoutTarget, extra: Extra = {}) =>
    target.kind === 'cashout'
      ? enqueue(queues, 'email', { kind: 'cashout-paid', cashoutId: target.id }, { ...extra, jobId: jobIds.cashoutPaid(target.id) })
      : enqueue(queues, 'email', { kind: 'refund-paid', refundId: target.id }, { ...extra, jobId: jobIds.refundPaid(target.id) }),
  sendPasswordReset: (queues: Queues, resetId: string) =>
    enqueue(queues, 'email', { kind: 'password-reset', resetId }, { jobId: jobIds.passwordReset(resetId), attempts: 5 }),
  sendPasswordChanged: (queues: Queues, resetId: string) =>
    enqueue(queues, 'email', { kind: 'password-changed', resetId }, { jobId: jobIds.passwordChanged(resetId) }),
  sendSecurityNotice: (queues: Queues, noticeId: string) =>
    enqueue(queues, 'email', { kind: 'security-notice', noticeId }, { jobId: jobIds.securityNotice(noticeId) }),
  checkPayout: (queues: Queues, checkId: string, extra: Extra = {}) =>
    enqueue(queues, 'payout-verify', { checkId }, { ...extra, jobId: jobIds.payoutCheck(checkId) }),
  relayAuthorization: (queues: Queues, authorizationId: string, extra: Extra = {}) =>
    enqueue(queues, 'payment-relay', { authorizationId }, { ...extra, jobId: jobIds.relay(authorizationId) }),
  /** Retries: exponential from WEBHOOK_RETRY_BASE_MS (the queue's defaults give the attempts). */
  deliverWebhook: (queues: Queues, deliveryId: string, retryBaseMs: number) =>
    enqueue(queues, 'webhook-deliver', { deliveryId }, { backoff: { type: 'exponential', delay: retryBaseMs }, jobId: jobIds.webhook(deliveryId) }),
  reconcile: (queues: Queues, extra: Extra = {}) => enqueue(queues, 'reconcile', { scope: 'changes' }, extra),
  /** A full audit of the books now; false when one is already waiting or running. */
  auditBooks: (queues: Queues) => requeue(queues.reconcile, jobIds.audit, () => enqueue(queues, 'reconcile', { scope: 'audit' }, { jobId: jobIds.audit })),
  /** A deposit sweep run now; false when one is already waiting or running. */
  sweepDeposits: (queues: Queues) => requeue(queues['deposit-sweep'], jobIds.depositSweep, () => enqueue(queues, 'deposit-sweep', {}, { jobId: jobIds.depositSweep })),
  /** A run that follows the sweeps on their way, `delayMs` from now (the n-th since one was sent); false when one is already waiting. */
  followSweeps: (queues: Queues, n: number, delayMs: number) =>
    requeue(queues['deposit-sweep'], jobIds.sweepFollow(n), () => enqueue(queues, 'deposit-sweep', { follow: n }, { jobId: jobIds.sweepFollow(n), delay: delayMs })),
  indexAt: (queues: Queues, head: bigint) => enqueue(queues, 'chain-index', {}, { jobId: jobIds.indexAt(head) }),
};
