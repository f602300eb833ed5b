import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { generate, generateSecret } from 'otplib';
import { applyLedger, CODE_USED, CODE_WRONG } from '@shop/core';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';
import { CODE_NEEDED } from '../sign-in/service.ts';
import { TWO_FACTOR_ENROL } from '../../middleware/auth.ts';

let kit: ApiTestKit;
beforeAll(async () => {
  kit = await createApiTestKit();
});
afterAll(async () => {
  await kit?.close();
});

const now = () => Math.floor(Date.now() / 1000);
/** The code of the 30-second step `steps` away from now. */
const codeAt = (secret: string, steps: number) => generate({ secret, epoch: now() + steps * 30 });
const login = (app: ApiTestKit['app'], user: TestUser, code?: string) =>
  request(app).post('/api/users/login').send({ email: user.email, password: user.password, ...(code !== undefined ? { code } : {}) });

/** Enrols `user` through the api; returns the secret and the recovery codes. */
async function enrol(user: TestUser, k = kit): Promise<{ secret: string; recoveryCodes: string[] }> {
  const as = await k.as(user);
  const started = await as.post('/api/users/2fa/totp').send({ password: user.password });
  expect(started.status).toBe(200);
  const { secret, otpauthUrl } = started.body as { secret: string; otpauthUrl: string };
  expect(otpauthUrl).toBe(`otpauth://totp/ETH%20Shop:${encodeURIComponent(user.email)}?secret=${secret}&issuer=ETH%20Shop`);
  const confirmed = await as.post('/api/users/2fa/totp/confirm').send({ code: await generate({ secret }) });
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recoveryCodes };
}

describe('TOTP enrolment', () => {
  it('turns on with a first code and gives ten single-use recovery codes, stored only as HMACs', async () => {
    const user = await kit.createUser();
    const { recoveryCodes } = await enrol(user);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const c of recoveryCodes) expect(c).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const stored = await kit.db.recoveryCode.findMany({ where: { userId: user.id } });
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(recoveryCodes[0]!.replace('-', ''));
    const row = await kit.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.totpEnabledAt).not.toBeNull();
    expect((await (await kit.as(user)).get('/api/users/2fa')).body).toEqual({ on: true, totp: true, passkeys: [], recoveryCodesLeft: 10, required: false });
    expect((await kit.db.auditEntry.findFirst({ where: { subjectId: user.id, action: '2fa.totp_enabled' } }))?.actorId).toBe(user.id);
  });

  it('refuses a code from the wrong secret, a confirmation with nothing started, and a second enrolment while on', async () => {
    const user = await kit.createUser();
    const as = await kit.as(user);
    expect((await as.post('/api/users/2fa/totp/confirm').send({ code: '123456' })).status).toBe(400);
    expect((await as.post('/api/users/2fa/totp').send({ password: 'not-the-password' })).body.message).toBe('That password is not right.');
    await as.post('/api/users/2fa/totp').send({ password: user.password });
    const wrong = await as.post('/api/users/2fa/totp/confirm').send({ code: await generate({ secret: generateSecret() }) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/That code is not right/);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).totpEnabledAt).toBeNull();
    const other = await kit.createUser();
    await enrol(other);
    // A new session must give the factor first; with it given, TOTP is on already.
    const fresh = await kit.as(other);
    expect((await fresh.post('/api/users/2fa/totp').send({ password: other.password })).body.stepUpRequired).toBe(true);
    const session = await kit.db.session.findFirstOrThrow({ where: { userId: other.id }, orderBy: { createdAt: 'desc' } });
    await kit.db.session.update({ where: { id: session.id }, data: { stepUpAt: new Date() } });
    expect((await fresh.post('/api/users/2fa/totp').send({ password: other.password })).status).toBe(409);
    expect((await request(kit.app).post('/api/users/2fa/totp')).status).toBe(401);
  });
});

describe('turning two-factor on ends the other sessions', () => {
  it('a session opened before (a stolen password, say) stops working; the one that turned it on goes on, with a second factor given', async () => {
    const user = await kit.createUser();
    const stolen = await kit.as(user);
    const own = await kit.cookieFor(user);
    const as = (path: string) => request(kit.app).post(path).set('Cookie', own);
    const { secret } = (await as('/api/users/2fa/totp').send({ password: user.password })).body as { secret: string };
    expect((await as('/api/users/2fa/totp/confirm').send({ code: await generate({ secret }) })).status).toBe(200);
    expect((await stolen.get('/api/users/profile')).status).toBe(401);
    expect((await request(kit.app).get('/api/users/profile').set('Cookie', own)).status).toBe(200);
    const session = await kit.db.session.findFirstOrThrow({ where: { userId: user.id, revokedAt: null } });
    expect(session.stepUpAt).not.toBeNull();
  });
});

describe('signing in with two-factor', () => {
  it('asks for the code (401, twoFactorRequired, no session), then takes a current code once', async () => {
    const user = await kit.createUser();
    const { secret } = await enrol(user);
    const first = await login(kit.app, user);
    expect(first.status).toBe(401);
    expect(first.body).toEqual({ message: CODE_NEEDED, twoFactorRequired: true, totp: true });
    expect(first.headers['set-cookie']).toBeUndefined();

    // A wrong password with 2FA on: the same answer as any wrong password (nothing says 2FA is on).
    const badPassword = await request(kit.app).post('/api/users/login').send({ email: user.email, password: 'wrong-password' });
    expect(badPassword.body).toEqual({ message: 'Invalid email or password' });

    // The step enrolment used is spent: its code is refused as used (wait for the next), not as wrong.
    const enrolledAt = (await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).totpLastStep!;
    const spent = await login(kit.app, user, await generate({ secret, epoch: Number(enrolledAt) * 30 }));
    expect(spent.status).toBe(401);
    expect(spent.body).toEqual({ message: CODE_USED, twoFactorRequired: true });
    const next = await codeAt(secret, 1);
    const ok = await login(kit.app, user, next);
    expect(ok.status).toBe(200);
    expect(ok.headers['set-cookie']).toBeDefined();
    const replay = await login(kit.app, user, next);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ message: CODE_USED, twoFactorRequired: true });
    // A code of another secret is wrong, not used.
    const wrong = await login(kit.app, user, await generate({ secret: generateSecret() }));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: CODE_WRONG, twoFactorRequired: true });
    const failed = await kit.db.auditEntry.findMany({ where: { subjectId: user.id, action: 'user.login_failed' } });
    expect(failed.map((e) => (e.after as { reason: string }).reason).sort()).toEqual(['code needed', 'password', 'second factor', 'second factor', 'second factor']);
  });

  it('takes a recovery code once, in any case and spacing', async () => {
    const user = await kit.createUser();
    const { recoveryCodes } = await enrol(user);
    const code = recoveryCodes[3]!;
    expect((await login(kit.app, user, ` ${code.toLowerCase()} `)).status).toBe(200);
    expect((await login(kit.app, user, code)).status).toBe(401);
    expect((await login(kit.app, user, 'AAAAA-AAAAA')).status).toBe(401);
    expect((await (await kit.as(user)).get('/api/users/2fa')).body.recoveryCodesLeft).toBe(9);
  });

  it('of two sign-ins with the same code at the same moment, one gets in', async () => {
    const user = await kit.createUser();
    const { secret } = await enrol(user);
    const code = await codeAt(secret, 1);
    const results = await Promise.all(Array.from({ length: 5 }, () => login(kit.app, user, code)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it('a few codes per account in 15 minutes, from any number of addresses', async () => {
    const spread = await createApiTestKit({ env: { TRUST_PROXY: '1' } });
    try {
      const user = await spread.createUser();
      await enrol(user, spread); // the enrolment's code is the first of the ten
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        statuses.push((await request(spread.app).post('/api/users/login').set('X-Forwarded-For', `198.51.100.${i + 1}`).send({ email: user.email, password: user.password, code: `12345${i % 10}` })).status);
      }
      expect(statuses.slice(0, 9).every((s) => s === 401)).toBe(true);
      expect(statuses[9]).toBe(429);
    } finally {
      await spread.close();
    }
  });

  it('the code budget holds whatever the spelling of the sign-in path (/login/, /LOGIN)', async () => {
    const spread = await createApiTestKit({ env: { TRUST_PROXY: '1', RATE_LIMIT_AUTH_PER_MINUTE: '100' } });
    try {
      const user = await spread.createUser();
      await enrol(user, spread); // the enrolment's code is the first of the ten
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const path = i % 2 ? '/api/users/login/' : '/api/users/LOGIN';
        statuses.push((await request(spread.app).post(path).set('X-Forwarded-For', `198.51.100.${i + 1}`).send({ email: user.email, password: user.password, code: `00${String(i).padStart(4, '0')}` })).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 429, 429, 429]);
    } finally {
      await spread.close();
    }
  });

  it('codes sent with a wrong password spend nothing of the account\'s code budget: whoever knows an e-mail cannot lock its owner out', async () => {
    const spread = await createApiTestKit({ env: { TRUST_PROXY: '1', RATE_LIMIT_AUTH_PER_MINUTE: '100' } });
    try {
      const user = await spread.createUser();
      const { secret } = await enrol(user, spread);
      for (let i = 0; i < 15; i++) {
        const res = await request(spread.app).post('/api/users/login').set('X-Forwarded-For', `203.0.113.${i + 1}`).send({ email: user.email, password: 'not-the-password', code: `12345${i % 10}` });
        expect(res.status).toBe(401);
      }
      expect((await login(spread.app, user, await codeAt(secret, 1))).status).toBe(200);
    } finally {
      await spread.close();
    }
  });

  it('wrong codes at sign-in and at step-up spend one budget: 10 per account in 15 minutes, not 10 each', async () => {
    const user = await kit.createUser();
    const { secret } = await enrol(user); // the enrolment's code is one of the ten
    const as = await kit.as(user);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(kit.app, user, `00000${i}`)).status);
    for (let i = 0; i < 5; i++) statuses.push((await as.post('/api/users/2fa/step-up').send({ code: `11111${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 400, 400, 400, 400, 400]);
    // The eleventh code, right or wrong and wherever it is tried, waits for the quarter hour.
    const right = await codeAt(secret, 1);
    const stepUp = await as.post('/api/users/2fa/step-up').send({ code: right });
    expect(stepUp.status).toBe(429);
    expect(stepUp.body.message).toMatch(/^Too many codes tried, please try again in \d+ seconds$/);
    expect((await login(kit.app, user, right)).status).toBe(429);
  });

  it('a sign-in with a broken string in the e-mail is a 401, not a fault', async () => {
    const res = await request(kit.app).post('/api/users/login').set('Content-Type', 'application/json').send('{"email":"\\ud800x@example.com","password":"x"}');
    expect(res.status).toBe(401);
  });

  it('wrong codes are rate-limited like passwords', async () => {
    // Four a minute: enrolling sends the password once (a guess like any), three sign-ins follow.
    const limited = await createApiTestKit({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '4' } });
    try {
      const user = await limited.createUser();
      await enrol(user, limited);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await login(limited.app, user, `00000${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('turning two-factor off', () => {
  it('needs a current code; a wrong one changes nothing', async () => {
    const user = await kit.createUser();
    const { secret } = await enrol(user);
    const as = await kit.as(user);
    expect((await as.post('/api/users/2fa/totp/disable').send({ code: '000000' })).status).toBe(400);
    expect((await as.post('/api/users/2fa/totp/disable').send({})).status).toBe(400);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).totpEnabledAt).not.toBeNull();
    const off = await as.post('/api/users/2fa/totp/disable').send({ code: await codeAt(secret, 1) });
    expect(off.status).toBe(200);
    expect(await kit.db.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    expect((await login(kit.app, user)).status).toBe(200);
  });
});

describe('ADMIN_2FA_REQUIRED', () => {
  it('an admin without a second factor reaches only the enrolment: every admin call is a 403 until it is on', async () => {
    const strict = await createApiTestKit({ env: { ADMIN_2FA_REQUIRED: 'true' } });
    try {
      const admin = await strict.createUser({ isAdmin: true });
      const as = await strict.as(admin);
      const refused = await as.get('/api/orders');
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: TWO_FACTOR_ENROL, twoFactorEnrolment: true });
      expect((await as.get('/api/users/2fa')).body).toEqual({ on: false, totp: false, passkeys: [], recoveryCodesLeft: 0, required: true });
      const { secret } = await enrol(admin, strict);
      // Turning it on ended the sessions other than the enrolling one: a new one.
      expect((await as.get('/api/orders')).status).toBe(401);
      const enrolled = await strict.as(admin);
      expect((await enrolled.get('/api/orders')).status).toBe(200);
      // Required: it cannot be turned off.
      const off = await enrolled.post('/api/users/2fa/totp/disable').send({ code: await codeAt(secret, 1) });
      expect(off.status).toBe(400);
      expect(off.body.message).toBe('Admins of this shop must keep two-factor sign-in on.');
      // A shopper is not forced.
      const shopper = await strict.createUser();
      expect((await (await strict.as(shopper)).get('/api/orders/mine')).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('step-up for money actions', () => {
  /** An admin with TOTP, signed in with a password and a code at `signedInAt` ms ago. */
  async function adminWithTotp(k: ApiTestKit) {
    const admin = await k.createUser({ isAdmin: true });
    const { secret, recoveryCodes } = await enrol(admin, k);
    const res = await login(k.app, admin, await codeAt(secret, 1));
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('jwt='))!.split(';')[0]!;
    const session = await k.db.session.findFirstOrThrow({ where: { userId: admin.id }, orderBy: { createdAt: 'desc' } });
    return { admin, secret, recoveryCodes, cookie, session };
  }
  const editBody = (u: TestUser, active: string) => ({
    name: u.name, email: u.email, isAdmin: false, activeBalance: active, passiveBalance: '0.00', loadedActiveBalance: '0.00', loadedPassiveBalance: '0.00',
  });

  it('a balance edit goes through within 10 minutes of signing in with a code; stale or missing, a 403 asks for a code, and a code lets it through', async () => {
    const { recoveryCodes, cookie, session } = await adminWithTotp(kit);
    const target = await kit.createUser();
    const fresh = await request(kit.app).put(`/api/users/${target.id}`).set('Cookie', cookie).send(editBody(target, '5.00'));
    expect(fresh.status).toBe(200);

    // Eleven minutes later: stale.
    await kit.db.session.update({ where: { id: session.id }, data: { stepUpAt: new Date(Date.now() - 11 * 60_000) } });
    const stale = await request(kit.app).put(`/api/users/${target.id}`).set('Cookie', cookie).send({ ...editBody(target, '9.00'), loadedActiveBalance: '5.00' });
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({ message: 'Confirm it is you: enter a code from your authenticator app.', stepUpRequired: true });
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: target.id } })).activeBalance.toFixed(2)).toBe('5.00');

    expect((await request(kit.app).post('/api/users/2fa/step-up').set('Cookie', cookie).send({ code: '000000' })).status).toBe(400);
    // The codes of this step and the next are spent by enrolment and sign-in: a recovery code is a second factor too.
    const stepped = await request(kit.app).post('/api/users/2fa/step-up').set('Cookie', cookie).send({ code: recoveryCodes[0] });
    expect(stepped.status).toBe(200);
    const again = await request(kit.app).put(`/api/users/${target.id}`).set('Cookie', cookie).send({ ...editBody(target, '9.00'), loadedActiveBalance: '5.00' });
    expect(again.status).toBe(200);
    expect(await kit.db.auditEntry.count({ where: { action: '2fa.step_up', subjectId: session.userId } })).toBe(1);
  });

  it('covers payouts marked paid, refunds, cashout rejections and the webhook secret, not reads; a session opened without a code has none', async () => {
    const { admin } = await adminWithTotp(kit);
    // A session opened with the password alone (an older session, say): no second factor in it.
    const as = await kit.as(admin);
    const id = '00000000-0000-4000-8000-000000000000';
    const guarded: [string, string][] = [
      ['post', `/api/admin/payments/${id}/assign`],
      ['put', `/api/products/${id}`],
      ['post', '/api/products'],
      ['delete', `/api/products/${id}/delete`],
      ['delete', `/api/orders/${id}/delete`],
      ['post', '/api/admin/webhooks'],
      ['patch', `/api/admin/webhooks/${id}`],
      ['delete', `/api/admin/webhooks/${id}`],
      ['delete', `/api/admin/cashouts/${id}/paid`],
      ['delete', `/api/admin/refunds/${id}/paid`],
      ['delete', `/api/users/${id}`],
      ['post', '/api/users/cashout'],
      ['post', '/api/users/exchange'],
      ['post', `/api/admin/cashouts/${id}/paid`],
      ['post', `/api/admin/cashouts/${id}/reject`],
      ['post', '/api/admin/refunds'],
      ['post', `/api/admin/refunds/${id}/paid`],
      ['post', `/api/admin/payments/${id}/refund`],
      ['post', `/api/admin/webhooks/${id}/secret`],
      ['put', `/api/users/${id}`],
      ['post', `/api/admin/approvals/${id}/approve`],
      ['post', `/api/admin/approvals/${id}/reject`],
    ];
    for (const [method, path] of guarded) {
      const res = await as[method as 'get' | 'post' | 'put' | 'delete' | 'patch'](path).send({});
      expect(res.status, path).toBe(403);
      expect(res.body.stepUpRequired, path).toBe(true);
    }
    expect((await as.get('/api/admin/cashouts')).status).toBe(200);
    // The profile: a new name is not a money action; a new e-mail or password is.
    expect((await as.put('/api/users/profile').send({ name: 'Renamed Admin' })).status).toBe(200);
    expect((await as.put('/api/users/profile').send({ email: 'elsewhere@example.com' })).body.stepUpRequired).toBe(true);
    expect((await as.put('/api/users/profile').send({ password: 'new-password-1' })).body.stepUpRequired).toBe(true);
  });

  it('covers the CSV exports and the full user list: a session without a fresh second factor reads neither', async () => {
    const { admin, cookie } = await adminWithTotp(kit);
    // A session opened with the password alone (a stolen cookie, say).
    const stolen = await kit.as(admin);
    const reads = ['/api/users', '/api/users?q=example', '/api/admin/export/ready', ...['paid-orders', 'orders', 'payments', 'ledger'].map((f) => `/api/admin/export/${f}.csv?from=2026-01-01&to=2026-01-31`)];
    for (const path of reads) {
      const res = await stolen.get(path);
      expect(res.status, path).toBe(403);
      expect(res.body.stepUpRequired, path).toBe(true);
    }
    expect(await kit.db.auditEntry.count({ where: { action: 'report.exported', actorId: admin.id } })).toBe(0);
    // The session that signed in with a code a moment ago reads them.
    expect((await request(kit.app).get('/api/users').set('Cookie', cookie)).status).toBe(200);
    expect((await request(kit.app).get('/api/admin/export/ready').set('Cookie', cookie)).status).toBe(204);
    const csv = await request(kit.app).get('/api/admin/export/ledger.csv?from=2026-01-01&to=2026-01-31').set('Cookie', cookie);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(await kit.db.auditEntry.count({ where: { action: 'report.exported', actorId: admin.id } })).toBe(1);
    // One user's page is a read an admin needs without a second factor each time.
    expect((await stolen.get(`/api/users/${admin.id}`)).status).toBe(200);
  });

  it('covers the audit log: every e-mail that signed in, page after page, is not read with a stolen admin cookie alone', async () => {
    const { admin, cookie } = await adminWithTotp(kit);
    const stolen = await kit.as(admin);
    for (const path of ['/api/admin/audit', '/api/admin/audit?action=user.login', `/api/admin/audit?subject=${admin.id}`]) {
      const res = await stolen.get(path);
      expect(res.status, path).toBe(403);
      expect(res.body.stepUpRequired, path).toBe(true);
    }
    const fresh = await request(kit.app).get('/api/admin/audit?action=user.login').set('Cookie', cookie);
    expect(fresh.status).toBe(200);
    expect(fresh.body.map((e: { actor: { email: string } | null }) => e.actor?.email)).toContain(admin.email);
  });

  it('a code given at sign-in is no step-up for a cashout: it asks for a second factor now (403) and moves nothing; one given after sign-in lets it through', async () => {
    const shopper = await kit.createUser();
    const { secret, recoveryCodes } = await enrol(shopper);
    await applyLedger(kit.db, [{ userId: shopper.id, account: 'ACTIVE', amount: '650.00', kind: 'DAILY_CREDIT', idempotencyKey: `seed650:${shopper.id}` }]);
    // Signed in a moment ago with the password and a code, as a new user would (or a thief with that session's cookie).
    const res = await login(kit.app, shopper, await codeAt(secret, 1));
    expect(res.status).toBe(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('jwt='))!.split(';')[0]!;
    const wallet = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
    const refused = await request(kit.app).post('/api/users/cashout').set('Cookie', cookie).send({ wallet });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'Confirm it is you: enter a code from your authenticator app.', stepUpRequired: true });
    expect(await kit.db.cashoutRequest.count({ where: { userId: shopper.id } })).toBe(0);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: shopper.id } })).activeBalance.toFixed(2)).toBe('650.00');

    expect((await request(kit.app).post('/api/users/2fa/step-up').set('Cookie', cookie).send({ code: recoveryCodes[0] })).status).toBe(200);
    const paid = await request(kit.app).post('/api/users/cashout').set('Cookie', cookie).send({ wallet });
    expect(paid.status).toBe(200);
    expect(paid.body.activeBalance).toBe(0);
    // Eleven minutes later that step-up is stale again.
    await kit.db.session.updateMany({ where: { userId: shopper.id }, data: { stepUpAt: new Date(Date.now() - 11 * 60_000) } });
    expect((await request(kit.app).post('/api/users/cashout').set('Cookie', cookie).send({ wallet })).body.stepUpRequired).toBe(true);
  });

  it('an admin without a second factor (a development shop) works as before', async () => {
    const admin = await kit.createUser({ isAdmin: true });
    const target = await kit.createUser();
    expect((await (await kit.as(admin)).put(`/api/users/${target.id}`).send(editBody(target, '3.00'))).status).toBe(200);
  });
});

describe('the webhook signing secret', () => {
  it('is in the answer that created the endpoint, never in the list; revealing it is audited', async () => {
    const admin = await kit.createUser({ isAdmin: true });
    const as = await kit.as(admin);
    const created = await as.post('/api/admin/webhooks').send({ url: 'http://127.0.0.1:1/in' });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const list = await as.get('/api/admin/webhooks');
    expect(list.body.find((e: { _id: string }) => e._id === created.body._id).secret).toBeNull();
    const revealed = await as.post(`/api/admin/webhooks/${created.body._id}/secret`);
    expect(revealed.body).toEqual({ secret: created.body.secret });
    expect(await kit.db.auditEntry.count({ where: { action: 'webhook.secret_revealed', subjectId: created.body._id, actorId: admin.id } })).toBe(1);
  });
});
