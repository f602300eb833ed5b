import { DelayedError } from 'bullmq';
import { fetch, type Agent } from 'undici';
import { jobIds, jobs, PrivateTargetError, queueDefinitions, requeue, signWebhook, webhookDispatcher, webhookTargetRefusal, type AppConfig, type Runtime } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/** An undelivered head handed to BullMQ this long ago is handed again (its job may be gone with Redis). */
const REQUEUE_AFTER = '5 minutes';

/**
 * The outbox relay: every WEBHOOK_DISPATCH_MS, each endpoint's oldest undelivered event
 * of each subject (at most 100 per endpoint: one that is down never holds back another)
 * is handed to webhook-deliver, once (`queuedAt`); a head still undelivered is handed
 * again after REQUEUE_AFTER (a deterministic job id: one still queued or waiting for its
 * next retry is not added twice). The next event of a subject is handed over when the
 * one before it is delivered or given up: an endpoint sees an order's events in order.
 */
export const webhookDispatch: Processor<'webhook-dispatch'> = async (_job, { runtime }) => {
  const heads = await runtime.db.$queryRaw<{ id: string }[]>`
    UPDATE "WebhookDelivery" SET "queuedAt" = now()
    WHERE "id" IN (
      SELECT h."id" FROM (
        SELECT d."id", d."queuedAt", ROW_NUMBER() OVER (PARTITION BY d."endpointId" ORDER BY d."seq") AS n
        FROM "WebhookDelivery" d
        WHERE d."status" = 'PENDING'
          AND NOT EXISTS (
            SELECT 1 FROM "WebhookDelivery" e
            WHERE e."endpointId" = d."endpointId" AND e."subject" = d."subject" AND e."status" = 'PENDING' AND e."seq" < d."seq")
      ) h
      WHERE h.n <= 100 AND (h."queuedAt" IS NULL OR h."queuedAt" < now() - ${REQUEUE_AFTER}::interval))
    RETURNING "id"`;
  // Replacing a finished job of the same id: a delivery whose last attempt failed to be
  // written (its job failed for good, the delivery still PENDING) is tried again.
  const queue = runtime.queues['webhook-deliver'];
  for (const { id } of heads) await requeue(queue, jobIds.webhook(id), () => jobs.deliverWebhook(runtime.queues, id, runtime.config.webhookRetryBaseMs));
  return { queued: heads.length };
};

/** Hands over the next undelivered event of the same endpoint and subject. */
async function queueNext(runtime: Runtime, d: { endpointId: string; subject: string; seq: bigint }): Promise<void> {
  const next = await runtime.db.webhookDelivery.findFirst({
    where: { endpointId: d.endpointId, subject: d.subject, status: 'PENDING', seq: { gt: d.seq } },
    orderBy: { seq: 'asc' },
    select: { id: true },
  });
  if (!next) return;
  await runtime.db.webhookDelivery.update({ where: { id: next.id }, data: { queuedAt: new Date() } });
  await jobs.deliverWebhook(runtime.queues, next.id, runtime.config.webhookRetryBaseMs);
}

/** Attempts of one delivery in all (the queue's): the delivery's own count decides the last one. */
const ATTEMPTS = queueDefinitions['webhook-deliver'].defaults.attempts;
/** What is read of an endpoint's answer, and kept of it. */
const READ_BYTES = 2048;
const EXCERPT_CHARS = 200;

/** Text an endpoint or the network gave, as one short line: no markup, no control characters. */
function excerpt(text: string): string {
  const line = text
    // eslint-disable-next-line no-control-regex -- terminal colour codes are what it removes
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    // eslint-disable-next-line no-control-regex -- control characters are what it removes
    .replace(/[\u0000-\u001f\u007f-\u009f<>]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS - 1)}…` : line;
}

/** The start of an answer's body (an endpoint may send megabytes: only READ_BYTES are read). */
async function readStart(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < READ_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, READ_BYTES).toString('utf8');
}

/** One dispatcher per configuration (per process): it keeps its connections. */
const dispatchers = new WeakMap<AppConfig, Agent>();
const dispatcherFor = (config: AppConfig) => {
  let agent = dispatchers.get(config);
  if (!agent) dispatchers.set(config, (agent = webhookDispatcher(config)));
  return agent;
};

/** The refusal to connect to a private address, wherever fetch put it. */
function privateTarget(err: unknown): PrivateTargetError | null {
  for (let e = err as { cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e instanceof PrivateTargetError) return e;
  }
  return null;
}

/**
 * One attempt of one event to one endpoint: POST the event's JSON, signed (Standard
 * Webhooks headers), the same webhook-id every time. A 2xx answer delivers it; anything
 * else (an error status, a timeout, a refused connection, a redirect) is a failed
 * attempt, retried with exponential back-off until WEBHOOK_ATTEMPTS, then FAILED (an
 * admin can redeliver it). Every attempt is logged for the admin page.
 */
export const webhookDeliver: Processor<'webhook-deliver'> = async (job, { runtime, logger, token }) => {
  const { db, config } = runtime;
  const delivery = await db.webhookDelivery.findUnique({ where: { id: job.data.deliveryId }, include: { event: true, endpoint: true } });
  if (!delivery || delivery.status !== 'PENDING') return { skipped: true };
  const { endpoint, event } = delivery;
  if (!endpoint.enabled || endpoint.deletedAt) {
    await db.webhookDelivery.update({ where: { id: delivery.id }, data: { status: 'FAILED', lastError: 'The endpoint was disabled or deleted' } });
    await queueNext(runtime, delivery);
    return { skipped: true };
  }
  // Only the oldest undelivered event of a subject goes (a redelivery can race the relay).
  const earlier = await db.webhookDelivery.count({
    where: { endpointId: endpoint.id, subject: delivery.subject, status: 'PENDING', seq: { lt: delivery.seq } },
  });
  if (earlier > 0) {
    await job.moveToDelayed(Date.now() + 1000, token);
    throw new DelayedError();
  }
  // The stored event, the same bytes on every attempt.
  const body = JSON.stringify(event.payload);
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const refused = webhookTargetRefusal(config, endpoint.url);
    if (refused) throw refused;
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'eth-shop-webhooks/1', ...signWebhook(endpoint.secret, event.id, new Date(), body) },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(config.webhookTimeoutMs),
      dispatcher: dispatcherFor(config),
    });
    statusCode = response.status;
    const text = excerpt(await readStart(response.body as ReadableStream<Uint8Array> | null).catch(() => ''));
    if (response.status < 200 || response.status >= 300) error = `Answered ${response.status}${text ? `: ${text}` : ''}`;
  } catch (err) {
    const refusal = privateTarget(err);
    const cause = (err as { cause?: { message?: string } })?.cause?.message;
    error = refusal
      ? refusal.message
      : excerpt(err instanceof Error ? (err.name === 'TimeoutError' ? `No answer within ${config.webhookTimeoutMs} ms` : cause ? `${err.message}: ${cause}` : err.message) : String(err));
  }
  const durationMs = Date.now() - started;
  // Counted on the delivery, not the job: a job replaced by the relay goes on counting.
  const last = delivery.attempts + 1 >= ATTEMPTS;
  const status = error === null ? 'DELIVERED' : last ? 'FAILED' : 'PENDING';
  await db.$transaction([
    db.webhookAttempt.create({ data: { deliveryId: delivery.id, statusCode, error, durationMs } }),
    db.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status, attempts: { increment: 1 }, lastStatus: statusCode, lastError: error, deliveredAt: error === null ? new Date() : null },
    }),
  ]);
  if (status !== 'PENDING') await queueNext(runtime, delivery);
  const log = logger.child({ delivery_id: delivery.id, event_id: event.id, type: event.type, status_code: statusCode, duration_ms: durationMs });
  if (error !== null) {
    if (last) log.error({ msg: 'webhook given up', error });
    throw new Error(`webhook to ${new URL(endpoint.url).host}: ${error}`);
  }
  log.info({ msg: 'webhook delivered' });
  return { delivered: true, statusCode };
};
