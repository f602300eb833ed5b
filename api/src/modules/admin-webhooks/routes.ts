import { Router } from 'express';
import { createWebhookBody, updateWebhookBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireStepUp } from '../../middleware/auth.ts';
import { audited } from '../../middleware/audit.ts';
import { byCreatedAt, pageQuery, sendPage } from '../../middleware/paging.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import * as webhooks from './service.ts';

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
    const rows = await webhooks.endpointsPage(db, page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => webhooks.endpointsJson(db, shown));
  });

  router.post('/', requireStepUp, async (req, res) => {
    const body = parseBody(createWebhookBody, req.body);
    const row = await webhooks.createEndpoint(db, config, body);
    await audited(req, db, { action: 'webhook.create', subject: { type: 'webhook', id: row.id }, after: { url: row.url, events: row.events } });
    res.status(201).json((await webhooks.endpointsJson(db, [row], { withSecret: true }))[0]);
  });

  // The signing secret: whoever holds it can forge the shop's webhooks, so it is a money
  // action (a second factor in the last 10 minutes) and audited.
  router.post('/:id/secret', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Webhook endpoint');
    const secret = await webhooks.endpointSecret(db, id);
    await audited(req, db, { action: 'webhook.secret_revealed', subject: { type: 'webhook', id } });
    res.json({ secret });
  });

  router.patch('/:id', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Webhook endpoint');
    const body = parseBody(updateWebhookBody, req.body);
    const before = await webhooks.endpointJson(db, id);
    const after = await webhooks.updateEndpoint(db, config, id, body);
    await audited(req, db, {
      action: 'webhook.update',
      subject: { type: 'webhook', id },
      before: { url: before.url, events: before.events, enabled: before.enabled },
      after: { url: after.url, events: after.events, enabled: after.enabled },
    });
    res.json(await webhooks.endpointJson(db, id));
  });

  router.delete('/:id', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Webhook endpoint');
    await webhooks.deleteEndpoint(db, id);
    await audited(req, db, { action: 'webhook.delete', subject: { type: 'webhook', id } });
    res.json({ message: 'Webhook endpoint deleted' });
  });

  router.get('/:id/deliveries', async (req, res) => {
    const id = parseId(req.params.id, 'Webhook endpoint');
    await webhooks.endpointJson(db, id);
    const page = pageQuery(req, 'seq');
    const rows = await webhooks.deliveriesPage(db, id, page);
    await sendPage(req, res, page, rows, (d) => ({ key: d.seq, id: d.id }), webhooks.deliveriesJson);
  });

  // One click: the event goes again (same id), with a fresh set of retries.
  router.post('/deliveries/:id/redeliver', async (req, res) => {
    const id = parseId(req.params.id, 'Delivery');
    await webhooks.redeliver(db, queues, config, id);
    await audited(req, db, { action: 'webhook.redeliver', subject: { type: 'webhook-delivery', id } });
    res.status(202).json({ message: 'Redelivery queued' });
  });
  return router;
}
