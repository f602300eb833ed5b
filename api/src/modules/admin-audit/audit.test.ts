import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { applyLedger, createProduct, Prisma, recordAudit } from '@shop/core';
import { orderReference, type AuditEntryJson } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

let kit: ApiTestKit;
let admin: TestUser;
let buyer: TestUser;
beforeAll(async () => {
  kit = await createApiTestKit({ env: { TRUST_PROXY: '1' } });
  admin = await kit.createUser({ name: 'Auditor', isAdmin: true, email: 'auditor@example.com' });
  buyer = await kit.createUser({ name: 'Buyer', email: 'audited-buyer@example.com' });
  // Through the ledger, as every balance is.
  await applyLedger(kit.db, [{ userId: buyer.id, account: 'ACTIVE', amount: '10.00', kind: 'DAILY_CREDIT', idempotencyKey: `audit-test:${buyer.id}` }]);
});
afterAll(async () => {
  await kit?.close();
});

const readAudit = async (query = '') => (await kit.as(admin)).get(`/api/admin/audit${query}`);

describe('GET /api/admin/audit', () => {
  it('records sign-ins, failed sign-ins and an admin balance edit with before, after, address and user agent', async () => {
    await request(kit.app).post('/api/users/login').set('X-Forwarded-For', '198.51.100.7').set('User-Agent', 'Thief/1.0').send({ email: buyer.email, password: 'wrong-password' });
    await request(kit.app).post('/api/users/login').set('X-Forwarded-For', '198.51.100.8').send({ email: 'ghost@example.com', password: 'wrong-password' });
    await request(kit.app).post('/api/users/login').send({ email: buyer.email, password: buyer.password });
    const edit = await (await kit.as(admin))
      .put(`/api/users/${buyer.id}`)
      .set('User-Agent', 'AdminBrowser/2.0')
      .send({ name: 'Buyer', email: buyer.email, isAdmin: false, activeBalance: '25.50', passiveBalance: '0.00', loadedActiveBalance: '10.00', loadedPassiveBalance: '0.00' });
    expect(edit.status).toBe(200);

    const res = await readAudit();
    expect(res.status).toBe(200);
    const [update, login, ghost, failed] = res.body as AuditEntryJson[];
    expect(update).toMatchObject({
      action: 'user.update',
      actor: { id: admin.id, email: admin.email },
      // Named as people know it: a user by their name, an order by its reference.
      subject: { type: 'user', id: buyer.id, name: 'Buyer' },
      before: { activeBalance: '10.00', passiveBalance: '0.00', email: buyer.email },
      after: { activeBalance: '25.50', passiveBalance: '0.00' },
      userAgent: 'AdminBrowser/2.0',
    });
    expect(login).toMatchObject({ action: 'user.login', actor: { id: buyer.id } });
    expect(ghost).toMatchObject({ action: 'user.login_failed', actor: null, subject: null, after: { email: 'ghost@example.com' }, ip: '198.51.100.8' });
    expect(failed).toMatchObject({ action: 'user.login_failed', subject: { type: 'user', id: buyer.id, name: 'Buyer' }, ip: '198.51.100.7', userAgent: 'Thief/1.0' });
    // A chain: each entry names the hash of the one before it.
    expect(update!.prevHash).toBe(login!.hash);
    expect(Number(update!.seq)).toBe(Number(login!.seq) + 1);
  });

  it('filters by actor (id or e-mail), action and subject, and pages newest first with a Link header', async () => {
    for (let i = 0; i < 3; i++) await request(kit.app).post('/api/users/login').send({ email: admin.email, password: admin.password });
    const byEmail = await readAudit(`?actor=${encodeURIComponent(admin.email.toUpperCase())}`);
    const byId = await readAudit(`?actor=${admin.id}`);
    expect(byEmail.body.map((e: AuditEntryJson) => e.action)).toEqual(['user.login', 'user.login', 'user.login', 'user.update']);
    expect(byId.body).toEqual(byEmail.body);
    expect((await readAudit('?action=user.login_failed')).body).toHaveLength(2);
    expect((await readAudit('?action=user.login_failed,user.update')).body).toHaveLength(3);
    expect((await readAudit(`?subject=${buyer.id}`)).body.map((e: AuditEntryJson) => e.action)).toEqual(['user.update', 'user.login', 'user.login_failed']);

    const first = await readAudit('?limit=2');
    expect(first.body).toHaveLength(2);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link ?? '')?.[1];
    expect(next).toMatch(/^\/api\/admin\/audit\?limit=2&cursor=/);
    const second = await (await kit.as(admin)).get(next!);
    expect(Number(second.body[0].seq)).toBe(Number(first.body[1].seq) - 1);
  });

  it("names each subject as people know it: a user by their name, an order by its reference, a package by its name", async () => {
    const product = await createProduct(kit.db, { name: 'Gold Package', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('25.00'), countInStock: 1, dailyCredit: new Prisma.Decimal('1.00'), durationDays: 30 });
    const orderId = '3f2a9c1e-0000-4000-8000-000000000001';
    const actor = { actor: { id: admin.id, email: admin.email } };
    await recordAudit(kit.db, actor, { action: 'order.delete', subject: { type: 'order', id: orderId } });
    await recordAudit(kit.db, actor, { action: 'product.update', subject: { type: 'product', id: product.id } });
    await recordAudit(kit.db, actor, { action: 'product.delete', subject: { type: 'product', id: '00000000-0000-4000-8000-00000000dead' } });
    const [gone, pkg, order] = (await readAudit('?limit=3')).body as AuditEntryJson[];
    expect(order!.subject).toEqual({ type: 'order', id: orderId, name: orderReference(orderId) });
    expect(pkg!.subject).toEqual({ type: 'product', id: product.id, name: 'Gold Package' });
    // Nothing left to name it by: its id is all there is.
    expect(gone!.subject).toEqual({ type: 'product', id: '00000000-0000-4000-8000-00000000dead', name: null });
  });

  it('is for admins only, and refuses a filter it does not know', async () => {
    expect((await request(kit.app).get('/api/admin/audit')).status).toBe(401);
    const asBuyer = await (await kit.as(buyer)).get('/api/admin/audit');
    expect(asBuyer.status).toBe(403);
    const bad = await readAudit('?action=user.steal');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/action must be one of/);
  });
});
