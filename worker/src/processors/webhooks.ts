import { DelayedError } from 'bullmq';
import { jobs, signWebhook, type Runtime } from '@shop/core';
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
  for (const { id } of heads) await jobs.deliverWebhook(runtime.queues, id, runtime.config.webhookRetryBaseMs);
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

const clip = (text: string) => (text.length > 500 ? `${text.slice(0, 497)}...` : text);

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
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'eth-shop-webhooks/1', ...signWebhook(endpoint.secret, event.id, new Date(), body) },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(config.webhookTimeoutMs),
    });
    statusCode = response.status;
    const text = await response.text().catch(() => '');
    if (response.status < 200 || response.status >= 300) error = clip(`Answered ${response.status}${text ? `: ${text}` : ''}`);
  } catch (err) {
    error = clip(err instanceof Error ? (err.name === 'TimeoutError' ? `No answer within ${config.webhookTimeoutMs} ms` : err.message) : String(err));
  }
  const durationMs = Date.now() - started;
  const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
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
