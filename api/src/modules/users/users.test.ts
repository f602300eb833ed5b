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

const cookieOf = (res: request.Response) => {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  return (raw ?? []).find((c) => c.startsWith('jwt='));
};

describe('registration', () => {
  it('creates the user, signs them in with an httpOnly SameSite=Lax cookie and never returns the hash', async () => {
    const res = await request(kit.app).post('/api/users').send({ email: ' New.Person@Example.com ', password: 'hunter22', name: 'New Person' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'New Person', email: 'new.person@example.com', isAdmin: false, activeBalance: 0, passiveBalance: 0, referralCommand: [] });
    expect(res.body.referralCode).toMatch(/^[2-9A-Z]{10}$/);
    expect(JSON.stringify(res.body)).not.toMatch(/password|argon/i);
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const profile = await request(kit.app).get('/api/users/profile').set('Cookie', cookie!.split(';')[0]!);
    expect(profile.status).toBe(200);
    expect(profile.body.email).toBe('new.person@example.com');
    const stored = await kit.db.user.findUniqueOrThrow({ where: { email: 'new.person@example.com' } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('links a referral code to the referrer, who then counts the person', async () => {
    const res = await request(kit.app).post('/api/users').send({ email: 'referred@example.com', password: 'hunter22', name: 'Referred', referredBy: alice.referralCode.toLowerCase() });
    expect(res.status).toBe(201);
    const profile = await (await kit.as(alice)).get('/api/users/profile');
    expect(profile.body.referralCommand).toEqual([{ _id: res.body._id, name: 'Referred' }]);
  });

  it('refuses an unknown referral code, a taken e-mail in any case, and bad input, storing nothing', async () => {
    const before = await kit.db.user.count();
    const cases: [unknown, number, RegExp][] = [
      [{ email: 'x1@example.com', password: 'hunter22', name: 'X', referredBy: 'NOPE123456' }, 400, /Unknown referral code/],
      [{ email: alice.email.toUpperCase(), password: 'hunter22', name: 'X' }, 409, /already exists/],
      [{ email: 'not-an-email', password: 'hunter22', name: 'X' }, 400, /^Email\b/],
      [{ email: 'x2@example.com', password: '123', name: 'X' }, 400, /^Password\b/],
      [{ email: 'x5@example.com', password: 'seven77', name: 'X' }, 400, /Password must be at least 8 characters/],
      [{ email: 'x3@example.com', password: 'hunter22', name: 'x'.repeat(5000) }, 400, /^Name\b/],
      [{ email: 'x4@example.com', password: 'hunter22' }, 400, /^Name\b/],
      [{ email: 42, password: ['a'], name: {} }, 400, /^Email\b/],
      [['array'], 400, /JSON object/],
    ];
    for (const [body, status, message] of cases) {
      const res = await request(kit.app).post('/api/users').send(body as object);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toMatch(message);
    }
    expect(await kit.db.user.count()).toBe(before);
  });
});

describe('login and logout', () => {
  it('signs in with the right password, case-insensitively on e-mail', async () => {
    const res = await request(kit.app).post('/api/users/login').send({ email: alice.email.toUpperCase(), password: alice.password });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(alice.id);
    expect(cookieOf(res)).toBeTruthy();
  });

  it('gives the same 401 message for a wrong password and an unknown e-mail', async () => {
    const wrong = await request(kit.app).post('/api/users/login').send({ email: alice.email, password: 'wrong-password' });
    const unknown = await request(kit.app).post('/api/users/login').send({ email: 'nobody@example.com', password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.message).toBe('Invalid email or password');
    expect(cookieOf(wrong)).toBeUndefined();
  });

  it('logout clears the session cookie', async () => {
    const res = await (await kit.as(alice)).post('/api/users/logout');
    expect(res.status).toBe(200);
    expect(cookieOf(res)).toMatch(/jwt=;/);
  });

  it('logout ends that session on the server: a copy of its token stops working, other sessions go on', async () => {
    const signIn = async () =>
      cookieOf(await request(kit.app).post('/api/users/login').send({ email: bob.email, password: bob.password }))!.split(';')[0]!;
    const laptop = await signIn();
    const phone = await signIn();
    const copied = laptop;
    expect((await request(kit.app).post('/api/users/logout').set('Cookie', laptop)).status).toBe(200);
    const reused = await request(kit.app).get('/api/users/profile').set('Cookie', copied);
    expect(reused.status).toBe(401);
    expect(cookieOf(reused)).toMatch(/jwt=;/);
    expect((await request(kit.app).get('/api/users/profile').set('Cookie', phone)).status).toBe(200);
  });

  it('a forged or garbage session is treated as signed out', async () => {
    for (const cookie of ['jwt=garbage', 'jwt=eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.', `jwt=${'a'.repeat(5000)}`]) {
      const res = await request(kit.app).get('/api/users/profile').set('Cookie', cookie);
      expect(res.status).toBe(401);
    }
  });
});

describe('rate limiting', () => {
  it('answers 429 with a message after too many login attempts', async () => {
    const limited = await createApiTestKit({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '3' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await request(limited.app).post('/api/users/login').send({ email: 'victim@example.com', password: `guess-${i}` });
        statuses.push(res.status);
        if (res.status === 429) expect(res.body.message).toMatch(/Too many attempts, please try again in \d+ seconds/);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('guesses of the current password at the profile spend the sign-in budget: a stolen session cannot try passwords without end', async () => {
    const limited = await createApiTestKit({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '3' } });
    try {
      const gus = await limited.createUser({ name: 'Gus', password: 'guss-password' });
      const as = await limited.as(gus);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await as.put('/api/users/profile').send({ email: 'thief@example.com', currentPassword: `guess-${i}` })).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
      const right = await as.put('/api/users/profile').send({ email: 'thief@example.com', currentPassword: 'guss-password' });
      expect(right.status).toBe(429);
      expect(right.body.message).toMatch(/^Too many attempts, please try again in \d+ seconds$/);
      expect((await limited.db.user.findUniqueOrThrow({ where: { id: gus.id } })).email).toBe(gus.email);
      // The same budget as signing in to that account; a name alone is no guess.
      expect((await request(limited.app).post('/api/users/login').send({ email: gus.email, password: 'guss-password' })).status).toBe(429);
      expect((await as.put('/api/users/profile').send({ name: 'Gus B' })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('guesses of the password when adding a second factor spend the same sign-in budget: no side door for a stolen session', async () => {
    const limited = await createApiTestKit({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '3' } });
    try {
      const ida = await limited.createUser({ name: 'Ida', password: 'idas-password' });
      const as = await limited.as(ida);
      const statuses = [
        (await as.post('/api/users/2fa/totp').send({ password: 'guess-0' })).status,
        (await as.post('/api/users/2fa/passkeys/options').send({ password: 'guess-1' })).status,
        (await as.put('/api/users/profile').send({ password: 'new-password-1', currentPassword: 'guess-2' })).status,
        (await as.post('/api/users/2fa/totp').send({ password: 'idas-password' })).status,
        (await as.post('/api/users/2fa/passkeys/options').send({ password: 'idas-password' })).status,
      ];
      expect(statuses).toEqual([400, 400, 400, 429, 429]);
      expect((await request(limited.app).post('/api/users/login').send({ email: ida.email, password: 'idas-password' })).status).toBe(429);
      expect(await limited.db.user.findUniqueOrThrow({ where: { id: ida.id }, select: { totpSecret: true } })).toEqual({ totpSecret: null });
    } finally {
      await limited.close();
    }
  });
});

describe('clients behind a proxy (TRUST_PROXY)', () => {
  const attempts = async (app: ApiTestKit['app'], forwardedFor: string[]) => {
    const statuses: number[] = [];
    for (const [i, ip] of forwardedFor.entries()) {
      const res = await request(app).post('/api/users/login').set('X-Forwarded-For', ip).send({ email: `someone-${i}@example.com`, password: 'wrong-pass' });
      statuses.push(res.status);
    }
    return statuses;
  };

  it('with one trusted hop, each client address has its own login bucket', async () => {
    const behindLb = await createApiTestKit({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '2', TRUST_PROXY: '1' } });
    try {
      expect(await attempts(behindLb.app, ['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.1'])).toEqual([401, 401, 401, 401, 429]);
    } finally {
      await behindLb.close();
    }
  });

  it('with no trusted proxy, a forwarded address is ignored: everyone shares the connecting address', async () => {
    const direct = await createApiTestKit({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '2', TRUST_PROXY: 'false' } });
    try {
      expect(await attempts(direct.app, ['203.0.113.1', '203.0.113.2', '203.0.113.3'])).toEqual([401, 401, 429]);
    } finally {
      await direct.close();
    }
  });
});

describe('profile', () => {
  it('updates name, e-mail and password; the new password works and the old does not', async () => {
    const carol = await kit.createUser({ name: 'Carol' });
    const res = await (await kit.as(carol)).put('/api/users/profile').send({ _id: alice.id, name: 'Caroline', email: 'caroline@example.com', password: 'brand-new-pass', currentPassword: carol.password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: carol.id, name: 'Caroline', email: 'caroline@example.com' });
    // The _id in the body never selects another user.
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: alice.id } })).name).toBe('Alice');
    expect((await request(kit.app).post('/api/users/login').send({ email: 'caroline@example.com', password: 'brand-new-pass' })).status).toBe(200);
    expect((await request(kit.app).post('/api/users/login').send({ email: 'caroline@example.com', password: carol.password })).status).toBe(401);
  });

  it('a new password or e-mail ends every other session of the user; the session that changed it stays', async () => {
    const erin = await kit.createUser({ name: 'Erin' });
    const signIn = async (password: string, email = erin.email) =>
      cookieOf(await request(kit.app).post('/api/users/login').send({ email, password }))!.split(';')[0]!;
    const profile = (cookie: string) => request(kit.app).get('/api/users/profile').set('Cookie', cookie);

    const [desk, stolen] = [await signIn(erin.password), await signIn(erin.password)];
    expect((await request(kit.app).put('/api/users/profile').set('Cookie', desk).send({ name: 'Erin B' })).status).toBe(200);
    expect((await profile(stolen)).status).toBe(200); // a name change ends nothing

    expect((await request(kit.app).put('/api/users/profile').set('Cookie', desk).send({ password: 'another-pass-1', currentPassword: erin.password })).status).toBe(200);
    expect((await profile(stolen)).status).toBe(401);
    expect((await profile(desk)).status).toBe(200);

    const again = await signIn('another-pass-1');
    expect((await request(kit.app).put('/api/users/profile').set('Cookie', desk).send({ email: 'erin.new@example.com', currentPassword: 'another-pass-1' })).status).toBe(200);
    expect((await profile(again)).status).toBe(401);
    expect((await profile(desk)).status).toBe(200);
  });

  it('a new password or e-mail needs the current password: without it, or with a wrong one, a 400 and nothing changes', async () => {
    const fay = await kit.createUser({ name: 'Fay', password: 'fays-password' });
    const as = await kit.as(fay);
    const cases: [object, string][] = [
      [{ password: 'taken-over-1' }, 'Enter your current password to change your e-mail or password.'],
      [{ email: 'thief@example.com' }, 'Enter your current password to change your e-mail or password.'],
      [{ password: 'taken-over-1', currentPassword: 'a-guess-123' }, 'That password is not right.'],
      [{ email: 'thief@example.com', currentPassword: 'a-guess-123' }, 'That password is not right.'],
    ];
    for (const [body, message] of cases) {
      const res = await as.put('/api/users/profile').send({ name: 'Fay', ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const stored = await kit.db.user.findUniqueOrThrow({ where: { id: fay.id } });
    expect(stored.email).toBe(fay.email);
    expect((await request(kit.app).post('/api/users/login').send({ email: fay.email, password: 'fays-password' })).status).toBe(200);
    // A name alone needs nothing more; with the current password, a new one is set.
    expect((await as.put('/api/users/profile').send({ name: 'Fay B' })).status).toBe(200);
    expect((await as.put('/api/users/profile').send({ password: 'fays-new-password', currentPassword: 'fays-password' })).status).toBe(200);
    expect((await request(kit.app).post('/api/users/login').send({ email: fay.email, password: 'fays-new-password' })).status).toBe(200);
  });

  it('an empty password leaves it unchanged; a taken e-mail is a 409', async () => {
    const dave = await kit.createUser({ name: 'Dave' });
    const ok = await (await kit.as(dave)).put('/api/users/profile').send({ name: 'Dave', email: dave.email, password: '' });
    expect(ok.status).toBe(200);
    expect((await request(kit.app).post('/api/users/login').send({ email: dave.email, password: dave.password })).status).toBe(200);
    const taken = await (await kit.as(dave)).put('/api/users/profile').send({ email: bob.email, currentPassword: dave.password });
    expect(taken.status).toBe(409);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: dave.id } })).email).toBe(dave.email);
  });
});

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
