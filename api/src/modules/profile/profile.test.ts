import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

let kit: ApiTestKit;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  kit = await createApiTestKit();
  alice = await kit.createUser({ name: 'Alice' });
  bob = await kit.createUser({ name: 'Bob' });
});
afterAll(async () => {
  await kit?.close();
});

const cookieOf = (res: request.Response) => {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  return (raw ?? []).find((c) => c.startsWith('jwt='));
};

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

  it('counts the live people a user referred: each registration adds one, a deletion takes one away, and concurrent sign-ups all count', async () => {
    const rita = await kit.createUser({ name: 'Rita' });
    const admin = await kit.createUser({ name: 'Admin', isAdmin: true });
    const register = (n: string) => request(kit.app).post('/api/users').send({ email: `referred-${n}@example.com`, password: 'referred-pass-1', name: `Referred ${n}`, referredBy: rita.referralCode });
    const first = await register('a');
    expect(first.status).toBe(201);
    expect((await register('b')).status).toBe(201);
    expect((await (await kit.as(admin)).delete(`/api/users/${first.body._id}`)).status).toBe(200);
    const profile = async () => (await (await kit.as(rita)).get('/api/users/profile')).body as { referralCount: number; referralCommand: { name: string }[] };
    expect(await profile()).toMatchObject({ referralCount: 1, referralCommand: [{ name: 'Referred b' }] });
    // Deleting the same user again changes nothing.
    expect((await (await kit.as(admin)).delete(`/api/users/${first.body._id}`)).status).toBe(404);

    const together = await Promise.all(['c', 'd', 'e', 'f'].map(register));
    expect(together.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect((await profile()).referralCount).toBe(5);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: rita.id } })).referralCount).toBe(await kit.db.user.count({ where: { referredById: rita.id, deletedAt: null } }));
  });
});
