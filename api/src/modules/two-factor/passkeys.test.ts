import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { generate } from 'otplib';
import { PASSKEY_WRONG } from '@shop/core';
import type { TwoFactorStatus } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';
import { SoftPasskey } from '../../../../scripts/testing/soft-passkey.ts';
import { PASSKEY_NEEDED } from '../sign-in/service.ts';

const ORIGIN = 'http://localhost:5173';
let kit: ApiTestKit;
beforeAll(async () => {
  kit = await createApiTestKit();
});
afterAll(async () => {
  await kit?.close();
});

/** A signed-in browser on ORIGIN: the cookie of a fresh session. */
async function browser(user: TestUser) {
  const as = await kit.as(user);
  return {
    get: (path: string) => as.get(path).set('Origin', ORIGIN),
    post: (path: string, body: object = {}) => as.post(path).set('Origin', ORIGIN).send(body),
    delete: (path: string) => as.delete(path).set('Origin', ORIGIN),
  };
}

/** Registers a software passkey for `user` through the api; returns it and the response body. */
async function enrolPasskey(user: TestUser, passkey = new SoftPasskey(ORIGIN)) {
  const b = await browser(user);
  const options = await b.post('/api/users/2fa/passkeys/options', { password: user.password });
  expect(options.status).toBe(200);
  const created = await b.post('/api/users/2fa/passkeys', { name: 'Laptop', response: passkey.register(options.body) });
  expect(created.status).toBe(201);
  return { passkey, body: created.body as { passkey: { _id: string }; recoveryCodes?: string[] } };
}

const login = (user: TestUser, extra: object = {}, origin = ORIGIN) =>
  request(kit.app).post('/api/users/login').set('Origin', origin).send({ email: user.email, password: user.password, ...extra });

describe('passkey enrolment', () => {
  it('needs the password, registers the passkey for this site, and gives recovery codes with the first second factor', async () => {
    const user = await kit.createUser();
    const b = await browser(user);
    expect((await b.post('/api/users/2fa/passkeys/options', { password: 'not-it' })).body.message).toBe('That password is not right.');
    const options = await b.post('/api/users/2fa/passkeys/options', { password: user.password });
    expect(options.body.rp).toEqual({ id: 'localhost', name: 'ETH Shop' });
    const passkey = new SoftPasskey(ORIGIN);
    const created = await b.post('/api/users/2fa/passkeys', { name: 'Laptop', response: passkey.register(options.body) });
    expect(created.status).toBe(201);
    expect(created.body.recoveryCodes).toHaveLength(10);
    const status = (await b.get('/api/users/2fa')).body as TwoFactorStatus;
    expect(status).toMatchObject({ on: true, totp: false, recoveryCodesLeft: 10, passkeys: [{ name: 'Laptop', lastUsedAt: null }] });
    expect((await kit.db.auditEntry.findFirst({ where: { subjectId: user.id, action: '2fa.passkey_added' } }))?.actorId).toBe(user.id);

    // The same response again: its challenge was used.
    const again = await b.post('/api/users/2fa/passkeys', { name: 'Laptop', response: passkey.register(options.body) });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This passkey set-up expired: start it again.');
  });

  it('refuses a passkey made for another site, and one answering a challenge it was not given', async () => {
    const user = await kit.createUser();
    const b = await browser(user);
    const options = await b.post('/api/users/2fa/passkeys/options', { password: user.password });
    const phished = new SoftPasskey('http://shop.example.net');
    expect((await b.post('/api/users/2fa/passkeys', { name: 'X', response: phished.register(options.body, 'http://shop.example.net') })).status).toBe(400);
    await b.post('/api/users/2fa/passkeys/options', { password: user.password });
    const forged = new SoftPasskey(ORIGIN).register({ challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' });
    expect((await b.post('/api/users/2fa/passkeys', { name: 'X', response: forged })).status).toBe(400);
    expect(await kit.db.passkey.count({ where: { userId: user.id } })).toBe(0);
  });

  it('adding a second factor to an account that has one needs that one now (step-up)', async () => {
    const user = await kit.createUser();
    await enrolPasskey(user);
    const fresh = await browser(user);
    const res = await fresh.post('/api/users/2fa/passkeys/options', { password: user.password });
    expect(res.status).toBe(403);
    expect(res.body.stepUpRequired).toBe(true);
    expect((await fresh.post('/api/users/2fa/totp', { password: user.password })).body.stepUpRequired).toBe(true);
  });
});

describe('pending set-ups', () => {
  it('adding a passkey ends an authenticator set-up that was started and not finished: its secret no longer turns on', async () => {
    const user = await kit.createUser();
    const b = await browser(user);
    // Started (say by someone who had the session and the password), never confirmed.
    const started = await b.post('/api/users/2fa/totp', { password: user.password });
    expect(started.status).toBe(200);
    const { secret } = started.body as { secret: string };
    const { passkey } = await enrolPasskey(user);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).totpSecret).toBeNull();
    // (The first factor ended that session: the owner signs in again and gives the passkey.)
    const owner = await browser(user);
    await owner.post('/api/users/2fa/step-up', { passkey: passkey.assert((await owner.post('/api/users/2fa/step-up/options')).body) });
    const late = await owner.post('/api/users/2fa/totp/confirm', { code: await generate({ secret }) });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe('Start the set-up first: scan the QR code, then enter the code your app shows.');
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).totpEnabledAt).toBeNull();
  });

  it('with a passkey on, confirming an authenticator app needs a second factor now (step-up)', async () => {
    const user = await kit.createUser();
    const { passkey } = await enrolPasskey(user);
    const b = await browser(user);
    await b.post('/api/users/2fa/step-up', { passkey: passkey.assert((await b.post('/api/users/2fa/step-up/options')).body) });
    const started = await b.post('/api/users/2fa/totp', { password: user.password });
    expect(started.status).toBe(200);
    // Eleven minutes later: the set-up is still pending, the step-up is stale.
    await kit.db.session.updateMany({ where: { userId: user.id }, data: { stepUpAt: new Date(Date.now() - 11 * 60_000) } });
    const code = await generate({ secret: (started.body as { secret: string }).secret });
    const refused = await b.post('/api/users/2fa/totp/confirm', { code });
    expect(refused.status).toBe(403);
    expect(refused.body.stepUpRequired).toBe(true);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).totpEnabledAt).toBeNull();
    await b.post('/api/users/2fa/step-up', { passkey: passkey.assert((await b.post('/api/users/2fa/step-up/options')).body) });
    expect((await b.post('/api/users/2fa/totp/confirm', { code })).status).toBe(200);
  });

  it('a cashout of an account with a passkey needs the passkey now, not only at sign-in', async () => {
    const user = await kit.createUser();
    const { passkey } = await enrolPasskey(user);
    const signIn = await login(user, { passkey: passkey.assert((await login(user)).body.passkey) });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('jwt='))!.split(';')[0]!;
    const res = await request(kit.app).post('/api/users/cashout').set('Cookie', cookie).set('Origin', ORIGIN).send({ wallet: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' });
    expect(res.status).toBe(403);
    expect(res.body.stepUpRequired).toBe(true);
    expect(await kit.db.cashoutRequest.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe('signing in with a passkey', () => {
  it('asks for it after the password, with a challenge for this user\'s passkeys; a good answer opens a session with a second factor', async () => {
    const user = await kit.createUser();
    const { passkey } = await enrolPasskey(user);
    const first = await login(user);
    expect(first.status).toBe(401);
    expect(first.body).toMatchObject({ message: PASSKEY_NEEDED, twoFactorRequired: true, totp: false });
    expect(first.body.passkey.allowCredentials).toEqual([{ id: passkey.id, type: 'public-key', transports: ['internal'] }]);
    expect(first.headers['set-cookie']).toBeUndefined();

    const answer = passkey.assert(first.body.passkey);
    const ok = await login(user, { passkey: answer });
    expect(ok.status).toBe(200);
    expect(ok.headers['set-cookie']?.[0]).toMatch(/^jwt=/);
    const session = await kit.db.session.findFirstOrThrow({ where: { userId: user.id }, orderBy: { createdAt: 'desc' } });
    expect(session.stepUpAt).not.toBeNull();
    expect((await kit.db.auditEntry.findFirst({ where: { subjectId: user.id, action: 'user.login' }, orderBy: { seq: 'desc' } }))?.after).toEqual({ secondFactor: 'passkey' });

    // The same answer again: the challenge went with the first use.
    const replay = await login(user, { passkey: answer });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe(PASSKEY_WRONG);
  });

  it('refuses another user\'s passkey, an answer for another site, a counter that went back (a cloned key), and no password', async () => {
    const alice = await kit.createUser();
    const mallory = await kit.createUser();
    const { passkey: alicesKey } = await enrolPasskey(alice);
    const { passkey: mallorysKey } = await enrolPasskey(mallory);

    const challenge = (await login(alice)).body.passkey;
    expect((await login(alice, { passkey: mallorysKey.assert(challenge) })).status).toBe(401);

    const phishing = (await login(alice)).body.passkey;
    expect((await login(alice, { passkey: alicesKey.assert(phishing, { origin: 'http://shop.example.net' }) })).status).toBe(401);

    const good = (await login(alice)).body.passkey;
    expect((await login(alice, { passkey: alicesKey.assert(good) })).status).toBe(200);
    const cloned = (await login(alice)).body.passkey;
    expect((await login(alice, { passkey: alicesKey.assert(cloned, { counter: 1 }) })).status).toBe(401);

    const noPassword = await request(kit.app).post('/api/users/login').set('Origin', ORIGIN).send({ email: alice.email, password: 'wrong', passkey: alicesKey.assert(good) });
    expect(noPassword.status).toBe(401);
    expect(noPassword.body.message).toBe('Invalid email or password');
    const failures = await kit.db.auditEntry.count({ where: { subjectId: alice.id, action: 'user.login_failed' } });
    expect(failures).toBeGreaterThanOrEqual(4);
  });

  it('a recovery code stands in for a lost passkey', async () => {
    const user = await kit.createUser();
    const { body } = await enrolPasskey(user);
    expect((await login(user, { code: body.recoveryCodes![0] })).status).toBe(200);
    expect((await login(user, { code: body.recoveryCodes![0] })).status).toBe(401);
  });
});

describe('step-up and removal', () => {
  it('a passkey gives the step-up money actions need', async () => {
    const admin = await kit.createUser({ isAdmin: true });
    const { passkey } = await enrolPasskey(admin);
    const b = await browser(admin);
    expect((await b.post('/api/admin/webhooks/00000000-0000-4000-8000-000000000000/secret')).body.stepUpRequired).toBe(true);
    const options = await b.post('/api/users/2fa/step-up/options');
    expect(options.status).toBe(200);
    const stepped = await b.post('/api/users/2fa/step-up', { passkey: passkey.assert(options.body) });
    expect(stepped.status).toBe(200);
    // Stepped up: the webhook is simply not there.
    expect((await b.post('/api/admin/webhooks/00000000-0000-4000-8000-000000000000/secret')).status).toBe(404);
    // A step-up answer signed for the sign-in challenge of this user does not count here.
    const loginChallenge = (await login(admin)).body.passkey;
    await b.post('/api/users/2fa/step-up/options');
    expect((await b.post('/api/users/2fa/step-up', { passkey: passkey.assert(loginChallenge) })).status).toBe(400);
  });

  it('removing needs a step-up; the last factor takes the recovery codes with it; an admin who must keep one cannot remove it', async () => {
    const user = await kit.createUser();
    const { passkey, body } = await enrolPasskey(user);
    const fresh = await browser(user);
    expect((await fresh.delete(`/api/users/2fa/passkeys/${body.passkey._id}`)).body.stepUpRequired).toBe(true);
    await fresh.post('/api/users/2fa/step-up', { passkey: passkey.assert((await fresh.post('/api/users/2fa/step-up/options')).body) });
    const planted = await browser(user);
    expect((await fresh.delete(`/api/users/2fa/passkeys/${body.passkey._id}`)).status).toBe(200);
    expect(await kit.db.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    // Every other session ends with it (one a thief opened with a passkey they planted).
    expect((await planted.get('/api/users/profile')).status).toBe(401);
    expect((await fresh.get('/api/users/profile')).status).toBe(200);
    expect((await login(user)).status).toBe(200);

    const strict = await createApiTestKit({ env: { ADMIN_2FA_REQUIRED: 'true' } });
    try {
      const admin = await strict.createUser({ isAdmin: true });
      const as = await strict.as(admin);
      const options = await as.post('/api/users/2fa/passkeys/options').set('Origin', ORIGIN).send({ password: admin.password });
      const key = new SoftPasskey(ORIGIN);
      const created = await as.post('/api/users/2fa/passkeys').set('Origin', ORIGIN).send({ name: 'Key', response: key.register(options.body) });
      expect(created.status).toBe(201);
      // The enrolling session stepped up when the first factor went on.
      const removed = await as.delete(`/api/users/2fa/passkeys/${created.body.passkey._id}`).set('Origin', ORIGIN);
      expect(removed.status).toBe(400);
      expect(await strict.db.passkey.count({ where: { userId: admin.id } })).toBe(1);
    } finally {
      await strict.close();
    }
  });

  it('TOTP and a passkey together: turning TOTP off keeps two-factor sign-in and the recovery codes', async () => {
    const user = await kit.createUser();
    const b = await browser(user);
    const started = await b.post('/api/users/2fa/totp', { password: user.password });
    const { secret } = started.body as { secret: string };
    const confirmed = await b.post('/api/users/2fa/totp/confirm', { code: await generate({ secret }) });
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    // The enrolling session has its step-up: a passkey can be added, and brings no new codes.
    const options = await b.post('/api/users/2fa/passkeys/options', { password: user.password });
    const created = await b.post('/api/users/2fa/passkeys', { name: 'Phone', response: new SoftPasskey(ORIGIN).register(options.body) });
    expect(created.status).toBe(201);
    expect(created.body.recoveryCodes).toBeUndefined();
    expect((await b.post('/api/users/2fa/totp/disable', { code: confirmed.body.recoveryCodes[0] })).status).toBe(200);
    const status = (await b.get('/api/users/2fa')).body as TwoFactorStatus;
    expect(status).toMatchObject({ on: true, totp: false, recoveryCodesLeft: 9 });
  });
});
