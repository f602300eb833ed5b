import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { jobIds } from '@shop/core';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Webhooks against a real HTTP receiver on loopback: Standard Webhooks signatures, the
 * same id on every attempt, retries after failures, an order's events in order, and no
 * event for a change that rolled back.
 */
type Received = { id: string; type: string; subject: string; ok: boolean; status: number; body: { type: string; data: { order?: { id: string; status: string } } } };

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
      received.push({ id: String(req.headers['webhook-id']), type: body.type, subject, ok: status < 300, status, body });
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
    await waitFor('order.paid to be delivered', async () => okFor(subject).some((r) => r.type === 'order.paid'), 20_000);

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
    expect((await asAdmin.post('/api/admin/webhooks').send({ url: 'http://example.com/x' })).body.message).toBe('url must use https://');
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
