import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { applyLedger, emitEvent, jobIds } from '@shop/core';
import { webhookDeliver } from './webhooks.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Webhooks against a real HTTP receiver on loopback: Standard Webhooks signatures, the
 * same id on every attempt, retries after failures, an order's events in order, and no
 * event for a change that rolled back.
 */
type Received = { id: string; path: string; type: string; subject: string; ok: boolean; status: number; body: { type: string; data: { order?: { id: string; status: string } } } };

const payer = ANVIL_ACCOUNTS[3];

let kit: PaymentKit;
let admin: TestUser;
let server: Server;
let url: string;
let secret = '';
const received: Received[] = [];
/** Answers for the next attempts of an event type (then 204). */
const failNext = new Map<string, number[]>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Received['body'];
      try {
        // Throws unless the signature over id, timestamp and raw body is the endpoint's.
        body = new Webhook(secret).verify(raw, req.headers as Record<string, string>) as Received['body'];
      } catch {
        res.writeHead(400).end('bad signature');
        return;
      }
      const planned = failNext.get(body.type) ?? [];
      const status = planned.shift() ?? 204;
      const subject = body.data.order ? `order:${body.data.order.id}` : '';
      received.push({ id: String(req.headers['webhook-id']), path: req.url ?? '', type: body.type, subject, ok: status < 300, status, body });
      res.writeHead(status).end(status < 300 ? '' : 'try again');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  kit = await createPaymentKit({ env: { WEBHOOK_RETRY_BASE_MS: '300', WEBHOOK_DISPATCH_MS: '100', REFERRAL_REWARD_PERCENT: '10' } });
  // The worker's relay (main.ts schedules it with the others).
  await kit.workerRuntime.queues['webhook-dispatch'].upsertJobScheduler('webhook-dispatch', { every: 100 }, { name: 'webhook-dispatch', data: {} });
  admin = await kit.createUser({ isAdmin: true });
  const created = await (await kit.as(admin)).post('/api/admin/webhooks').send({ url, description: 'fulfilment' });
  expect(created.status).toBe(201);
  secret = created.body.secret;
  expect(secret).toMatch(/^whsec_/);
});
afterAll(async () => {
  await kit?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const okFor = (subject: string) => received.filter((r) => r.ok && r.subject === subject);

describe('webhooks', () => {
  it("delivers an order's events signed, in order, each id once, across forced retries", async () => {
    const buyer = await kit.createUser();
    const order = await kit.placeOrder(buyer);
    const subject = `order:${order.id}`;
    // The first two attempts of order.underpaid fail: order.paid must wait behind it.
    failNext.set('order.underpaid', [500, 503]);
    const half = order.amountWei / 2n;
    const first = await kit.chain.sendAndWait(payer, kit.receiving, half - (half % 10n ** 12n) + (order.amountWei % 10n ** 12n));
    await kit.report(buyer, order.id, first);
    await kit.waitForStatus(order.id, 'UNDERPAID');
    // The pay page's quote for the rest (same tag).
    const rest = BigInt((await (await kit.as(buyer)).get(`/api/orders/${order.id}`)).body.quote.amountWei);
    const second = await kit.chain.sendAndWait(payer, kit.receiving, rest);
    await kit.report(buyer, order.id, second);
    await kit.waitForStatus(order.id, 'PAID');
    await waitFor('order.paid to be delivered', async () => okFor(subject).some((r) => r.type === 'order.paid'));

    const attempts = received.filter((r) => r.subject === subject);
    expect(attempts.map((r) => [r.type, r.status])).toEqual([
      ['order.underpaid', 500],
      ['order.underpaid', 503],
      ['order.underpaid', 204],
      ['order.paid', 204],
    ]);
    // Every attempt of an event carries its one id; two events, two ids.
    const ids = [...new Set(attempts.map((r) => r.id))];
    expect(ids).toHaveLength(2);
    expect(new Set(attempts.filter((r) => r.type === 'order.underpaid').map((r) => r.id)).size).toBe(1);
    expect(okFor(subject).map((r) => r.id)).toEqual(ids);
    expect(okFor(subject).at(-1)?.body.data.order).toMatchObject({ id: order.id, status: 'PAID' });

    // The admin's delivery log shows each attempt; a redelivery sends the same id again.
    const asAdmin = await kit.as(admin);
    const endpoint = (await asAdmin.get('/api/admin/webhooks')).body[0];
    expect(endpoint.counts).toMatchObject({ pending: 0, failed: 0 });
    const log = (await asAdmin.get(`/api/admin/webhooks/${endpoint._id}/deliveries`)).body as { _id: string; type: string; eventId: string; attempts: number; log: unknown[] }[];
    const underpaid = log.find((d) => d.type === 'order.underpaid')!;
    expect(underpaid).toMatchObject({ status: 'DELIVERED', attempts: 3, lastStatus: 204 });
    expect(underpaid.log).toHaveLength(3);
    expect((await asAdmin.post(`/api/admin/webhooks/deliveries/${underpaid._id}/redeliver`)).status).toBe(202);
    await waitFor('the redelivery', async () => okFor(subject).filter((r) => r.id === underpaid.eventId).length === 2);
  });

  it('sends nothing for a change that rolled back, and the change once it commits', async () => {
    const referrer = await kit.createUser();
    const buyer = await kit.createUser({ referredById: referrer.id });
    const order = await kit.placeOrder(buyer);
    // Paying the order posts the referrer's reward in the same transaction: make that fail.
    await kit.db.$executeRawUnsafe(`CREATE FUNCTION x_test_ledger_down() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'ledger down'; END $$ LANGUAGE plpgsql`);
    await kit.db.$executeRawUnsafe(`CREATE TRIGGER x_test_ledger_down BEFORE INSERT ON "LedgerEntry" FOR EACH ROW EXECUTE FUNCTION x_test_ledger_down()`);
    let hash: `0x${string}`;
    try {
      hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
      await kit.report(buyer, order.id, hash);
      await waitFor('a failed verification', async () => ((await kit.workerRuntime.queues['payment-verify'].getJob(jobIds.verify(hash.toLowerCase())))?.attemptsMade ?? 0) >= 1);
      expect(await kit.orderStatus(order.id)).not.toBe('PAID');
      expect(await kit.db.webhookEvent.count({ where: { subject: `order:${order.id}` } })).toBe(0);
    } finally {
      await kit.db.$executeRawUnsafe('DROP TRIGGER x_test_ledger_down ON "LedgerEntry"');
      await kit.db.$executeRawUnsafe('DROP FUNCTION x_test_ledger_down()');
    }
    await kit.waitForStatus(order.id, 'PAID');
    await waitFor('order.paid to be delivered', async () => okFor(`order:${order.id}`).length === 1);
    expect(okFor(`order:${order.id}`).map((r) => r.type)).toEqual(['order.paid']);
    expect(await kit.db.webhookEvent.count({ where: { subject: `order:${order.id}` } })).toBe(1);
  });

  it('admins register https endpoints only, with known event types', async () => {
    const asAdmin = await kit.as(admin);
    expect((await asAdmin.post('/api/admin/webhooks').send({ url: 'ftp://example.com/x' })).status).toBe(400);
    expect((await asAdmin.post('/api/admin/webhooks').send({ url: 'http://example.com/x' })).body.message).toBe('URL must use https://');
    expect((await asAdmin.post('/api/admin/webhooks').send({ url: 'https://user:pw@example.com/x' })).status).toBe(400);
    const bad = await asAdmin.post('/api/admin/webhooks').send({ url: 'https://example.com/x', events: ['order.paid', 'order.shipped'] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/unknown event type order.shipped/);
    const created = await asAdmin.post('/api/admin/webhooks').send({ url: 'https://example.com/x', events: ['cashout.paid'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ events: ['cashout.paid'], enabled: true });
    expect((await asAdmin.patch(`/api/admin/webhooks/${created.body._id}`).send({ enabled: false })).body.enabled).toBe(false);
    expect((await asAdmin.delete(`/api/admin/webhooks/${created.body._id}`)).status).toBe(200);
    expect((await asAdmin.get(`/api/admin/webhooks/${created.body._id}/deliveries`)).status).toBe(404);
    const buyer = await kit.createUser();
    expect((await (await kit.as(buyer)).get('/api/admin/webhooks')).status).toBe(403);
  });
});

/** An event whose deliveries the relay leaves alone for now (handed to BullMQ just now, as far as it knows). */
const emitHeld = (subject: string, data: { attempts?: number } = {}) =>
  kit.db.$transaction(async (tx) => {
    const id = await emitEvent(tx, 'cashout.paid', subject, { cashout: { id: subject } });
    await tx.webhookDelivery.updateMany({ where: { eventId: id }, data: { queuedAt: new Date(), ...data } });
    return id;
  });

describe('webhooks at their edges', () => {
  it("keeps only a short, clean excerpt of an endpoint's error answer", async () => {
    const noisy = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(`<html>\n<body>\u0000\u001b[31m${'Internal error '.repeat(2000)}</body></html>`);
    });
    await new Promise<void>((resolve) => noisy.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = await kit.db.webhookEndpoint.create({
        data: { url: `http://127.0.0.1:${(noisy.address() as AddressInfo).port}/noisy`, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', events: ['cashout.requested'] },
      });
      const user = await kit.createUser();
      await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '25.00', kind: 'DAILY_CREDIT', idempotencyKey: `noisy:${user.id}` }]);
      expect((await (await kit.as(user)).post('/api/users/cashout').send({ wallet: ANVIL_ACCOUNTS[2] })).status).toBe(200);
      const attempt = await waitFor('an attempt at the noisy endpoint', () => kit.db.webhookAttempt.findFirst({ where: { delivery: { endpointId: endpoint.id } } }));
      expect(attempt.statusCode).toBe(500);
      expect(attempt.error!.length).toBeLessThanOrEqual(240);
      expect(attempt.error).toMatch(/^Answered 500: Internal error Internal error/);
      // One line, no control characters, no markup.
      // eslint-disable-next-line no-control-regex -- control characters are what it looks for
      expect(attempt.error).not.toMatch(/[\u0000-\u001f\u007f<>]/);
      await kit.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false } });
    } finally {
      await new Promise((resolve) => noisy.close(resolve));
    }
  });

  it('never connects to a private address where they are not allowed, whatever the host resolved to when it was registered', async () => {
    const { config } = kit.workerRuntime;
    // Its own path: the shop's first endpoint (same host) gets the same event from the running worker.
    const endpoint = await kit.db.webhookEndpoint.create({ data: { url: `${url}/private-test`, secret, events: ['cashout.paid'] } });
    const event = await emitHeld('cashout:private-test');
    const delivery = await kit.db.webhookDelivery.findUniqueOrThrow({ where: { eventId_endpointId: { eventId: event, endpointId: endpoint.id } } });
    const atThisEndpoint = () => received.filter((r) => r.path === '/hooks/private-test').length;
    const job = { data: { deliveryId: delivery.id }, attemptsMade: 0, opts: { attempts: 15 } } as never;
    const strict = { ...kit.workerRuntime, config: { ...config, webhookAllowPrivate: false } };
    await expect(webhookDeliver(job, { runtime: strict, logger: kit.workerRuntime.logger, token: 't' } as never)).rejects.toThrow();
    const attempt = await kit.db.webhookAttempt.findFirstOrThrow({ where: { deliveryId: delivery.id } });
    expect(attempt.error).toMatch(/^Refused: 127\.0\.0\.1 is a private, loopback or link-local address \(WEBHOOK_ALLOW_PRIVATE\)$/);
    expect(atThisEndpoint()).toBe(0);
    await kit.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false } });
  });

  it("a last attempt whose result cannot be written does not block its subject's later events", async () => {
    const endpoint = await kit.db.webhookEndpoint.create({ data: { url, secret, events: ['cashout.paid'] } });
    const subject = 'cashout:stuck-test';
    const first = await emitHeld(subject, { attempts: 14 });
    const firstDelivery = await kit.db.webhookDelivery.findUniqueOrThrow({ where: { eventId_endpointId: { eventId: first, endpointId: endpoint.id } } });
    // Its 15th attempt: the receiver gets it, then the database refuses the write.
    await kit.db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refuse_attempt() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql`);
    await kit.db.$executeRawUnsafe(`CREATE TRIGGER refuse_attempt BEFORE INSERT ON "WebhookAttempt" FOR EACH ROW WHEN (NEW."deliveryId" = '${firstDelivery.id}') EXECUTE FUNCTION refuse_attempt()`);
    try {
      // The job's last attempt (BullMQ's count), as the 15th of a delivery's attempts would be.
      await kit.workerRuntime.queues['webhook-deliver'].add('webhook-deliver', { deliveryId: firstDelivery.id }, { jobId: jobIds.webhook(firstDelivery.id), attempts: 1 });
      await waitFor('the last attempt to fail', async () => {
        const job = await kit.workerRuntime.queues['webhook-deliver'].getJob(jobIds.webhook(firstDelivery.id));
        return job && (await job.getState()) === 'failed';
      });
    } finally {
      await kit.db.$executeRawUnsafe(`DROP TRIGGER refuse_attempt ON "WebhookAttempt"`);
    }
    const second = await kit.db.$transaction((tx) => emitEvent(tx, 'cashout.paid', subject, { cashout: { id: 'second' } }));
    // The relay hands an undelivered head again after a while (its job may be gone): as if that time had passed.
    await kit.db.webhookDelivery.update({ where: { id: firstDelivery.id }, data: { queuedAt: new Date(Date.now() - 3600_000) } });
    await waitFor('the later event of the subject to be delivered', async () => {
      const d = await kit.db.webhookDelivery.findUnique({ where: { eventId_endpointId: { eventId: second, endpointId: endpoint.id } } });
      return d?.status === 'DELIVERED';
    });
    expect((await kit.db.webhookDelivery.findUniqueOrThrow({ where: { id: firstDelivery.id } })).status).not.toBe('PENDING');
    await kit.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false } });
  });
});
