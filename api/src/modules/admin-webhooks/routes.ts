import { Router } from 'express';
import { conflict, jobIds, Prisma, jobs, newWebhookSecret, notFound, requeue, webhookEventTypes, webhookUrl, type Db } from '@shop/core';
import { createWebhookBody, updateWebhookBody, WEBHOOK_EVENT_TYPES, type WebhookDeliveryJson, type WebhookEndpointJson, type WebhookEventType } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireStepUp } from '../../middleware/auth.ts';
import { audited } from '../../middleware/audit.ts';
import { byCreatedAt, keysetOrder, keysetWhere, pageQuery, sendPage } from '../../middleware/paging.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';

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
async function endpointsJson(db: Db, rows: EndpointRow[], opts: { withSecret?: boolean } = {}): Promise<WebhookEndpointJson[]> {
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

async function endpointJson(db: Db, id: string): Promise<WebhookEndpointJson> {
  const row = await db.webhookEndpoint.findFirst({ where: { id, deletedAt: null } });
  if (!row) throw notFound('Webhook endpoint not found');
  return (await endpointsJson(db, [row]))[0] as WebhookEndpointJson;
}

/**
 * Admin: webhook endpoints (https URLs that receive the shop's signed events), their
 * delivery log, and redelivery of one event (the same webhook-id: receivers that saw it
 * drop it).
 */
export function adminWebhookRoutes(deps: AppDeps): Router {
  const { db, config, queues } = deps;
  const router = Router();
  router.use(requireAdmin);

  router.get('/', async (req, res) => {
    const page = pageQuery(req);
    const rows = await db.webhookEndpoint.findMany({
      where: { deletedAt: null, ...(keysetWhere('createdAt', 'asc', page.after) as Prisma.WebhookEndpointWhereInput) },
      orderBy: keysetOrder('createdAt', 'asc') as Prisma.WebhookEndpointOrderByWithRelationInput[],
      take: page.limit + 1,
    });
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => endpointsJson(db, shown));
  });

  router.post('/', requireStepUp, async (req, res) => {
    const body = parseBody(createWebhookBody, req.body);
    const row = await db.webhookEndpoint.create({
      data: {
        url: await webhookUrl(config, body.url),
        description: body.description ?? '',
        events: webhookEventTypes(body.events ?? [...WEBHOOK_EVENT_TYPES]),
        secret: newWebhookSecret(),
      },
    });
    await audited(req, db, { action: 'webhook.create', subject: { type: 'webhook', id: row.id }, after: { url: row.url, events: row.events } });
    res.status(201).json((await endpointsJson(db, [row], { withSecret: true }))[0]);
  });

  // The signing secret: whoever holds it can forge the shop's webhooks, so it is a money
  // action (a second factor in the last 10 minutes) and audited.
  router.post('/:id/secret', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Webhook endpoint');
    const row = await db.webhookEndpoint.findFirst({ where: { id, deletedAt: null }, select: { secret: true } });
    if (!row) throw notFound('Webhook endpoint not found');
    await audited(req, db, { action: 'webhook.secret_revealed', subject: { type: 'webhook', id } });
    res.json({ secret: row.secret });
  });

  router.patch('/:id', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Webhook endpoint');
    const body = parseBody(updateWebhookBody, req.body);
    const before = await endpointJson(db, id);
    const after = await db.webhookEndpoint.update({
      where: { id },
      data: {
        ...(body.url !== undefined ? { url: await webhookUrl(config, body.url) } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.events !== undefined ? { events: webhookEventTypes(body.events) } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
      },
    });
    await audited(req, db, {
      action: 'webhook.update',
      subject: { type: 'webhook', id },
      before: { url: before.url, events: before.events, enabled: before.enabled },
      after: { url: after.url, events: after.events, enabled: after.enabled },
    });
    res.json(await endpointJson(db, id));
  });

  router.delete('/:id', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Webhook endpoint');
    await endpointJson(db, id);
    // Kept (soft delete) so its delivery log stays readable in the database.
    await db.webhookEndpoint.update({ where: { id }, data: { deletedAt: new Date(), enabled: false } });
    await audited(req, db, { action: 'webhook.delete', subject: { type: 'webhook', id } });
    res.json({ message: 'Webhook endpoint deleted' });
  });

  router.get('/:id/deliveries', async (req, res) => {
    const id = parseId(req.params.id, 'Webhook endpoint');
    await endpointJson(db, id);
    // Newest first by its sequence (index WebhookDelivery(endpointId, seq, id)).
    const page = pageQuery(req, 'seq');
    const rows = await db.webhookDelivery.findMany({
      where: { endpointId: id, ...(keysetWhere('seq', 'desc', page.after) as Prisma.WebhookDeliveryWhereInput) },
      include: { event: { select: { type: true } }, log: { orderBy: { at: 'desc' }, take: 20 } },
      orderBy: keysetOrder('seq', 'desc') as Prisma.WebhookDeliveryOrderByWithRelationInput[],
      take: page.limit + 1,
    });
    await sendPage(req, res, page, rows, (d) => ({ key: d.seq, id: d.id }), (shown) =>
      shown.map(
        (d): WebhookDeliveryJson => ({
          _id: d.id,
          eventId: d.eventId,
          type: d.event.type as WebhookEventType,
          subject: d.subject,
          status: d.status,
          attempts: d.attempts,
          lastStatus: d.lastStatus,
          lastError: d.lastError,
          createdAt: d.createdAt.toISOString(),
          deliveredAt: d.deliveredAt?.toISOString() ?? null,
          log: d.log.map((a) => ({ at: a.at.toISOString(), statusCode: a.statusCode, error: a.error, durationMs: a.durationMs })),
        }),
      ),
    );
  });

  // One click: the event goes again (same id), with a fresh set of retries.
  router.post('/deliveries/:id/redeliver', async (req, res) => {
    const id = parseId(req.params.id, 'Delivery');
    const delivery = await db.webhookDelivery.findUnique({ where: { id }, include: { endpoint: true } });
    if (!delivery) throw notFound('Delivery not found');
    if (!delivery.endpoint.enabled || delivery.endpoint.deletedAt) throw conflict('Enable the endpoint before redelivering its events');
    await db.webhookDelivery.update({ where: { id }, data: { status: 'PENDING', deliveredAt: null, queuedAt: new Date() } });
    const queued = await requeue(queues['webhook-deliver'], jobIds.webhook(id), () => jobs.deliverWebhook(queues, id, config.webhookRetryBaseMs));
    // Waiting for its next retry: that retry goes now. Being sent: that attempt goes out.
    if (!queued) await (await queues['webhook-deliver'].getJob(jobIds.webhook(id)))?.promote().catch(() => {});
    await audited(req, db, { action: 'webhook.redeliver', subject: { type: 'webhook-delivery', id } });
    res.status(202).json({ message: 'Redelivery queued' });
  });
  return router;
}
