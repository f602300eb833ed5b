import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { applyLedger, ledgerSums } from '@shop/core';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

let kit: ApiTestKit;
let admin: TestUser;
let otherAdmin: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  kit = await createApiTestKit();
  admin = await kit.createUser({ name: 'Admin', isAdmin: true });
  otherAdmin = await kit.createUser({ name: 'Other Admin', isAdmin: true });
  alice = await kit.createUser({ name: 'Alice' });
  bob = await kit.createUser({ name: 'Bob' });
});
afterAll(async () => {
  await kit?.close();
});

// Anvil's third dev account: any wallet but the shop's own receiving address.
const PAYOUT_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

describe('admin user management', () => {
  it('lists users without password hashes and reads one', async () => {
    const list = await (await kit.as(admin)).get('/api/users');
    expect(list.status).toBe(200);
    expect(list.body.map((u: { _id: string }) => u._id)).toEqual(expect.arrayContaining([admin.id, alice.id, bob.id]));
    expect(JSON.stringify(list.body)).not.toMatch(/passwordHash|argon/);
    const one = await (await kit.as(admin)).get(`/api/users/${bob.id}`);
    expect(one.body).toMatchObject({ _id: bob.id, name: 'Bob' });
    expect((await (await kit.as(admin)).get('/api/users/not-a-uuid')).status).toBe(404);
  });

  it('edits a user; balance changes go through the ledger and balances equal the ledger', async () => {
    const erin = await kit.createUser({ name: 'Erin' });
    const asAdmin = await kit.as(admin);
    const res = await asAdmin.put(`/api/users/${erin.id}`).send({ userId: erin.id, name: 'Erin E', email: erin.email, isAdmin: false, activeBalance: '25.50', passiveBalance: 3, loadedActiveBalance: 0, loadedPassiveBalance: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Erin E', activeBalance: 25.5, passiveBalance: 3 });
    const again = await asAdmin.put(`/api/users/${erin.id}`).send({ name: 'Erin E', email: erin.email, isAdmin: false, activeBalance: '20.25', passiveBalance: 3, loadedActiveBalance: 25.5, loadedPassiveBalance: 3 });
    expect(again.body.activeBalance).toBe(20.25);
    const entries = await kit.db.ledgerEntry.findMany({ where: { userId: erin.id }, orderBy: { createdAt: 'asc' } });
    expect(entries.map((e) => [e.kind, e.account, e.amount.toFixed(2)])).toEqual([
      ['ADMIN_ADJUSTMENT', 'ACTIVE', '25.50'],
      ['ADMIN_ADJUSTMENT', 'PASSIVE', '3.00'],
      ['ADMIN_ADJUSTMENT', 'ACTIVE', '-5.25'],
    ]);
    const sums = await ledgerSums(kit.db, erin.id);
    expect(sums.active.toFixed(2)).toBe('20.25');
    expect(sums.passive.toFixed(2)).toBe('3.00');
  });

  it('1. a save from a form loaded before a cashout never pays the balance back: unchanged balances are left alone, a changed one is a 409', async () => {
    const gail = await kit.createUser({ name: 'Gail' });
    await applyLedger(kit.db, [{ userId: gail.id, account: 'ACTIVE', amount: '100.00', kind: 'DAILY_CREDIT', idempotencyKey: `seed100:${gail.id}` }]);
    const asAdmin = await kit.as(admin);
    const loaded = (await asAdmin.get(`/api/users/${gail.id}`)).body;
    expect(loaded.activeBalance).toBe(100);
    // Meanwhile Gail cashes out her $100.
    expect((await (await kit.as(gail)).post('/api/users/cashout').send({ wallet: PAYOUT_WALLET })).status).toBe(200);
    const form = { name: 'Gail G', email: gail.email, isAdmin: false, activeBalance: loaded.activeBalance, passiveBalance: loaded.passiveBalance, loadedActiveBalance: loaded.activeBalance, loadedPassiveBalance: loaded.passiveBalance };
    const saved = await asAdmin.put(`/api/users/${gail.id}`).send(form);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ name: 'Gail G', activeBalance: 0 });
    expect(await kit.db.ledgerEntry.count({ where: { userId: gail.id, kind: 'ADMIN_ADJUSTMENT' } })).toBe(0);
    // The admin did mean to change it, from what the form showed: the figure moved meanwhile.
    const stale = await asAdmin.put(`/api/users/${gail.id}`).send({ ...form, activeBalance: 150 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('The active balance changed since this form was loaded (it is now $0.00). Reload the user and enter the change again.');
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: gail.id } })).activeBalance.toFixed(2)).toBe('0.00');
    // From fresh figures the change goes through the ledger.
    const fresh = await asAdmin.put(`/api/users/${gail.id}`).send({ ...form, activeBalance: 5, loadedActiveBalance: 0 });
    expect(fresh.status).toBe(200);
    expect(fresh.body.activeBalance).toBe(5);
  });

  it('refuses negative balances and bad fields, changing nothing', async () => {
    const frank = await kit.createUser({ name: 'Frank', activeBalance: '0' });
    const asAdmin = await kit.as(admin);
    const loaded = { loadedActiveBalance: 0, loadedPassiveBalance: 0 };
    for (const body of [
      { name: 'F', email: frank.email, isAdmin: false, activeBalance: -5, passiveBalance: 0, ...loaded },
      { name: 'F', email: frank.email, isAdmin: false, activeBalance: '1.999', passiveBalance: 0, ...loaded },
      { name: 'F', email: frank.email, isAdmin: 'yes', activeBalance: 1, passiveBalance: 0, ...loaded },
      { name: '', email: frank.email, isAdmin: false, activeBalance: 1, passiveBalance: 0, ...loaded },
      { name: 'F', email: 'nope', isAdmin: false, activeBalance: 1, passiveBalance: 0, ...loaded },
      { name: 'F', email: frank.email, isAdmin: false, activeBalance: 1, passiveBalance: 0 }, // what the form loaded is missing
    ]) {
      const res = await asAdmin.put(`/api/users/${frank.id}`).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBeTruthy();
    }
    const stored = await kit.db.user.findUniqueOrThrow({ where: { id: frank.id } });
    expect(stored.name).toBe('Frank');
    expect(await kit.db.ledgerEntry.count({ where: { userId: frank.id } })).toBe(0);
  });

  it('nobody removes their own admin rights; admins do not edit or delete other admins', async () => {
    const asAdmin = await kit.as(admin);
    const self = await asAdmin.put(`/api/users/${admin.id}`).send({ name: 'Admin', email: admin.email, isAdmin: false, activeBalance: 0, passiveBalance: 0, loadedActiveBalance: 0, loadedPassiveBalance: 0 });
    expect(self.status).toBe(400);
    expect(self.body.message).toBe('You cannot remove your own admin rights');
    const other = await asAdmin.put(`/api/users/${otherAdmin.id}`).send({ name: 'Hacked', email: otherAdmin.email, isAdmin: false, activeBalance: 0, passiveBalance: 0, loadedActiveBalance: 0, loadedPassiveBalance: 0 });
    expect(other.status).toBe(403);
    const del = await asAdmin.delete(`/api/users/${otherAdmin.id}`);
    expect(del.status).toBe(400);
    expect(del.body.message).toBe('Cannot delete an admin user');
    const stored = await kit.db.user.findUniqueOrThrow({ where: { id: otherAdmin.id } });
    expect(stored).toMatchObject({ name: 'Other Admin', isAdmin: true, deletedAt: null });
  });

  it('admin rights come from the database on every request', async () => {
    const gina = await kit.createUser({ name: 'Gina', isAdmin: true });
    const asGina = await kit.as(gina);
    expect((await asGina.get('/api/users')).status).toBe(200);
    await kit.db.user.update({ where: { id: gina.id }, data: { isAdmin: false } });
    expect((await asGina.get('/api/users')).status).toBe(403);
  });

  it('an admin setting a new password or e-mail signs the user out everywhere', async () => {
    const ivy = await kit.createUser({ name: 'Ivy' });
    const asIvy = await kit.as(ivy);
    const edit = (over: object) =>
      kit.as(admin).then((a) => a.put(`/api/users/${ivy.id}`).send({ name: 'Ivy', email: ivy.email, isAdmin: false, activeBalance: 0, passiveBalance: 0, loadedActiveBalance: 0, loadedPassiveBalance: 0, ...over }));
    expect((await edit({ name: 'Ivy R' })).status).toBe(200);
    expect((await asIvy.get('/api/users/profile')).status).toBe(200);
    expect((await edit({ password: 'set-by-admin-1' })).status).toBe(200);
    expect((await asIvy.get('/api/users/profile')).status).toBe(401);
    const asIvyAgain = await kit.as(ivy);
    expect((await edit({ email: 'ivy.r@example.com' })).status).toBe(200);
    expect((await asIvyAgain.get('/api/users/profile')).status).toBe(401);
  });

  it('deleting a user keeps their records, frees the e-mail and ends their session', async () => {
    const hank = await kit.createUser({ name: 'Hank' });
    const asHank = await kit.as(hank);
    const res = await (await kit.as(admin)).delete(`/api/users/${hank.id}`);
    expect(res.status).toBe(200);
    expect((await asHank.get('/api/users/profile')).status).toBe(401);
    expect((await request(kit.app).post('/api/users/login').send({ email: hank.email, password: hank.password })).status).toBe(401);
    const list = await (await kit.as(admin)).get('/api/users');
    expect(list.body.find((u: { _id: string }) => u._id === hank.id)).toBeUndefined();
    const again = await request(kit.app).post('/api/users').send({ email: hank.email, password: 'hunter22', name: 'Hank 2' });
    expect(again.status).toBe(201);
    expect((await (await kit.as(admin)).delete(`/api/users/${hank.id}`)).status).toBe(404);
  });
});

describe('permission matrix', () => {
  const routes = (target: () => string) => [
    ['get', '/api/users'],
    ['get', `/api/users/${target()}`],
    ['put', `/api/users/${target()}`],
    ['delete', `/api/users/${target()}`],
  ] as const;

  it('guests get 401 on signed-in and admin routes', async () => {
    const guest = await kit.as(null);
    expect((await guest.get('/api/users/profile')).status).toBe(401);
    expect((await guest.put('/api/users/profile').send({ name: 'x' })).status).toBe(401);
    for (const [method, path] of routes(() => bob.id)) {
      const res = await guest[method](path).send({});
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.message).toBe('Not authorized, please sign in');
    }
  });

  it('a plain user gets 403 on admin routes, including for another user', async () => {
    const asAlice = await kit.as(alice);
    for (const [method, path] of routes(() => bob.id)) {
      const res = await asAlice[method](path).send({ name: 'x', email: 'x@example.com', isAdmin: true, activeBalance: 1e6, passiveBalance: 0 });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    const stored = await kit.db.user.findUniqueOrThrow({ where: { id: bob.id } });
    expect(stored).toMatchObject({ name: 'Bob', isAdmin: false, deletedAt: null });
    expect(stored.activeBalance.toFixed(2)).toBe('0.00');
  });
});
