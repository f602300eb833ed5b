import { conflict, jobIds, jobs, newWebhookSecret, notFound, Prisma, requeue, webhookEventTypes, webhookUrl, type AppConfig, type Db, type Queues } from '@shop/core';
import {
  WEBHOOK_EVENT_TYPES,
  type createWebhookBody,
  type updateWebhookBody,
  type WebhookDeliveryJson,
  type WebhookEndpointJson,
  type WebhookEventType,
} from '@shop/core/contract';
import type { z } from 'zod';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';

type EndpointRow = { id: string; url: string; description: string; secret: string; events: string[]; enabled: boolean; createdAt: Date };

/**
 * Each endpoint's deliveries by status, counted in WebhookDelivery(endpointId, status,
 * ...) without grouping its whole history: pending and failed ones are open work (an
 * admin redelivers a failed one); delivered ones are those kept, the last
 * WEBHOOK_RETENTION_DAYS (the retention job removes older ones), counted from the index
 * alone.
 */
async function deliveryCounts(db: Db, ids: string[]): Promise<Map<string, { pending: number; delivered: number; failed: number }>> {
  if (ids.length === 0) return new Map();
  const open = await db.$queryRaw<{ id: string; pending: number; failed: number }[]>`
    SELECT e."id",
      (SELECT count(*) FROM "WebhookDelivery" d WHERE d."endpointId" = e."id" AND d."status" = 'PENDING')::int AS "pending",
      (SELECT count(*) FROM "WebhookDelivery" d WHERE d."endpointId" = e."id" AND d."status" = 'FAILED')::int AS "failed"
    FROM unnest(${ids}::uuid[]) AS e("id")`;
  const delivered = await db.$queryRaw<{ id: string; delivered: number }[]>`
    SELECT e."id", (SELECT count(*) FROM "WebhookDelivery" d WHERE d."endpointId" = e."id" AND d."status" = 'DELIVERED')::int AS "delivered"
    FROM unnest(${ids}::uuid[]) AS e("id")`;
  const deliveredOf = new Map(delivered.map((r) => [r.id, r.delivered]));
  return new Map(open.map((r) => [r.id, { pending: r.pending, delivered: deliveredOf.get(r.id) ?? 0, failed: r.failed }]));
}

/** Endpoints as the admin lists them: the signing secret only when just created (`withSecret`); otherwise it is revealed on request, with a step-up. */
export async function endpointsJson(db: Db, rows: EndpointRow[], opts: { withSecret?: boolean } = {}): Promise<WebhookEndpointJson[]> {
  const counts = await deliveryCounts(db, rows.map((r) => r.id));
  return rows.map((e) => ({
    _id: e.id,
    url: e.url,
    description: e.description,
    secret: opts.withSecret ? e.secret : null,
    events: e.events as WebhookEventType[],
    enabled: e.enabled,
    createdAt: e.createdAt.toISOString(),
    counts: counts.get(e.id) ?? { pending: 0, delivered: 0, failed: 0 },
  }));
}

/** One endpoint, not deleted; 404 otherwise. */
export async function endpointJson(db: Db, id: string): Promise<WebhookEndpointJson> {
  const row = await db.webhookEndpoint.findFirst({ where: { id, deletedAt: null } });
  if (!row) throw notFound('Webhook endpoint not found');
  return (await endpointsJson(db, [row]))[0] as WebhookEndpointJson;
}

/** One page of endpoints, oldest first. */
export function endpointsPage(db: Db, page: PageQuery): Promise<EndpointRow[]> {
  return db.webhookEndpoint.findMany({
    where: { deletedAt: null, ...(keysetWhere('createdAt', 'asc', page.after) as Prisma.WebhookEndpointWhereInput) },
    orderBy: keysetOrder('createdAt', 'asc') as Prisma.WebhookEndpointOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

/** A new endpoint with a fresh signing secret; its URL is checked (https, and where it may point). */
export async function createEndpoint(db: Db, config: AppConfig, body: z.output<typeof createWebhookBody>): Promise<EndpointRow> {
  return db.webhookEndpoint.create({
    data: {
      url: await webhookUrl(config, body.url),
      description: body.description ?? '',
      events: webhookEventTypes(body.events ?? [...WEBHOOK_EVENT_TYPES]),
      secret: newWebhookSecret(),
    },
  });
}

/** An endpoint's signing secret; 404 for none (or a deleted one). */
export async function endpointSecret(db: Db, id: string): Promise<string> {
  const row = await db.webhookEndpoint.findFirst({ where: { id, deletedAt: null }, select: { secret: true } });
  if (!row) throw notFound('Webhook endpoint not found');
  return row.secret;
}

/** Changes what the body names; returns the endpoint after. */
export async function updateEndpoint(db: Db, config: AppConfig, id: string, body: z.output<typeof updateWebhookBody>): Promise<EndpointRow> {
  return db.webhookEndpoint.update({
    where: { id },
    data: {
      ...(body.url !== undefined ? { url: await webhookUrl(config, body.url) } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.events !== undefined ? { events: webhookEventTypes(body.events) } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    },
  });
}

/** Kept (soft delete) so its delivery log stays readable in the database. */
export async function deleteEndpoint(db: Db, id: string): Promise<void> {
  await endpointJson(db, id);
  await db.webhookEndpoint.update({ where: { id }, data: { deletedAt: new Date(), enabled: false } });
}

/** One page of an endpoint's deliveries, newest first by its sequence (index WebhookDelivery(endpointId, seq, id)), with their last attempts. */
export function deliveriesPage(db: Db, endpointId: string, page: PageQuery) {
  return db.webhookDelivery.findMany({
    where: { endpointId, ...(keysetWhere('seq', 'desc', page.after) as Prisma.WebhookDeliveryWhereInput) },
    include: { event: { select: { type: true } }, log: { orderBy: { at: 'desc' }, take: 20 } },
    orderBy: keysetOrder('seq', 'desc') as Prisma.WebhookDeliveryOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

type DeliveryRow = {
  id: string;
  subject: string;
  status: WebhookDeliveryJson['status'];
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  event: { type: string };
};

/** What every view of a delivery shows (the webhooks page, the admin's order page). */
export const deliveryStateJson = (d: DeliveryRow) => ({
  _id: d.id,
  type: d.event.type as WebhookEventType,
  subject: d.subject,
  status: d.status,
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  createdAt: d.createdAt.toISOString(),
  deliveredAt: d.deliveredAt?.toISOString() ?? null,
});

export const deliveriesJson = (rows: Awaited<ReturnType<typeof deliveriesPage>>): WebhookDeliveryJson[] =>
  rows.map((d) => ({
    ...deliveryStateJson(d),
    eventId: d.eventId,
    log: d.log.map((a) => ({ at: a.at.toISOString(), statusCode: a.statusCode, error: a.error, durationMs: a.durationMs })),
  }));

/** The event goes again (same id), with a fresh set of retries; 409 while its endpoint is off. */
export async function redeliver(db: Db, queues: Queues, config: AppConfig, id: string): Promise<void> {
  const delivery = await db.webhookDelivery.findUnique({ where: { id }, include: { endpoint: true } });
  if (!delivery) throw notFound('Delivery not found');
  if (!delivery.endpoint.enabled || delivery.endpoint.deletedAt) throw conflict('Enable the endpoint before redelivering its events');
  await db.webhookDelivery.update({ where: { id }, data: { status: 'PENDING', deliveredAt: null, queuedAt: new Date() } });
  const queued = await requeue(queues['webhook-deliver'], jobIds.webhook(id), () => jobs.deliverWebhook(queues, id, config.webhookRetryBaseMs));
  // Waiting for its next retry: that retry goes now. Being sent: that attempt goes out.
  if (!queued) await (await queues['webhook-deliver'].getJob(jobIds.webhook(id)))?.promote().catch(() => {});
}
