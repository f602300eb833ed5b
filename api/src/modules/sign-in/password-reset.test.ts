import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { jobIds, resetMail, RESET_LINK_INVALID, RESET_LINK_WORKS, RESET_REQUESTED_MESSAGE, tokenDigest } from '@shop/core';
import { createApiTestKit, type ApiTestKit } from '../../testing/api-test-kit.ts';

let kit: ApiTestKit;
beforeAll(async () => {
  // One trusted proxy hop: each test's requests come from the address it names.
  kit = await createApiTestKit({ env: { TRUST_PROXY: '1' } });
});
afterAll(async () => {
  await kit?.close();
});

const ask = (email: string, ip = '198.51.100.10') => request(kit.app).post('/api/users/password-reset').set('X-Forwarded-For', ip).send({ email });
const check = (token: string) => request(kit.app).post('/api/users/password-reset/check').send({ token });
const confirm = (token: string, password: string) => request(kit.app).post('/api/users/password-reset/confirm').send({ token, password });
const emailJob = (id: string) => kit.env.runtime.queues.email.getJob(id);

/** The token the e-mail job would send for the newest reset of `userId` (the worker's own reader). */
async function tokenOf(userId: string): Promise<{ resetId: string; token: string }> {
  const reset = await kit.db.passwordReset.findFirstOrThrow({ where: { userId }, orderBy: { createdAt: 'desc' } });
  const mail = await resetMail(kit.db, kit.env.runtime.config, reset.id);
  return { resetId: reset.id, token: mail!.token };
}

describe('password reset', () => {
  it('answers the same for an e-mail with an account and one without, and mails only the account', async () => {
    const user = await kit.createUser({ email: 'forgetful@example.com' });
    const known = await ask(' Forgetful@Example.com ');
    const unknown = await ask('nobody-here@example.com');
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(known.body).toEqual({ message: RESET_REQUESTED_MESSAGE });
    expect(unknown.body).toEqual(known.body);
    const resets = await kit.db.passwordReset.findMany({});
    expect(resets.map((r) => r.userId)).toEqual([user.id]);
    expect(await emailJob(jobIds.passwordReset(resets[0]!.id))).toBeTruthy();
    // The job names the reset only; the token is sealed in the database, never in Redis.
    expect((await emailJob(jobIds.passwordReset(resets[0]!.id)))!.data).toEqual({ kind: 'password-reset', resetId: resets[0]!.id });
    const { token } = await tokenOf(user.id);
    expect(resets[0]!.tokenHash).toBe(tokenDigest(token));
    expect(resets[0]!.sealedToken).not.toContain(token);
    expect(resets[0]!.expiresAt.getTime() - resets[0]!.createdAt.getTime()).toBe(30 * 60_000);
  });

  it('sets the new password once: every session ends, the old password stops working, the link cannot be used again', async () => {
    const user = await kit.createUser({ email: 'resetter@example.com', password: 'old-password' });
    const signedIn = await kit.as(user);
    expect((await signedIn.get('/api/users/profile')).status).toBe(200);
    await ask(user.email);
    const { token, resetId } = await tokenOf(user.id);
    const done = await confirm(token, 'brand-new-password');
    expect(done.status).toBe(200);
    expect(done.body.message).toBe('Your password was changed. Sign in with the new one.');
    expect((await signedIn.get('/api/users/profile')).status).toBe(401);
    expect((await request(kit.app).post('/api/users/login').send({ email: user.email, password: 'old-password' })).status).toBe(401);
    expect((await request(kit.app).post('/api/users/login').send({ email: user.email, password: 'brand-new-password' })).status).toBe(200);
    expect(await emailJob(jobIds.passwordChanged(resetId))).toBeTruthy();

    const again = await confirm(token, 'another-password');
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(RESET_LINK_INVALID);
    expect((await request(kit.app).post('/api/users/login').send({ email: user.email, password: 'another-password' })).status).toBe(401);
  });

  it('refuses an expired link, an unknown one, a short password, and retires the other links of the account', async () => {
    const user = await kit.createUser({ email: 'slow@example.com', password: 'old-password' });
    await ask(user.email);
    const first = await tokenOf(user.id);
    await kit.db.passwordReset.update({ where: { id: first.resetId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await confirm(first.token, 'brand-new-password')).toMatchObject({ status: 400, body: { message: RESET_LINK_INVALID } });
    expect((await confirm('x'.repeat(43), 'brand-new-password')).body.message).toBe(RESET_LINK_INVALID);
    expect((await confirm('short', 'brand-new-password')).status).toBe(400);

    const live = () => kit.db.passwordReset.findMany({ where: { userId: user.id, usedAt: null, expiresAt: { gt: new Date() } } });
    await ask(user.email, '198.51.100.11');
    const [asked] = await live();
    await ask(user.email, '198.51.100.12');
    const resets = await live();
    expect(resets).toHaveLength(2);
    // Known by id, not by their stamps (two links asked within one millisecond share one).
    const older = (await resetMail(kit.db, kit.env.runtime.config, asked!.id))!.token;
    const newer = (await resetMail(kit.db, kit.env.runtime.config, resets.find((r) => r.id !== asked!.id)!.id))!.token;
    expect((await confirm(newer, 'short')).status).toBe(400);
    expect((await confirm(newer, 'brand-new-password')).status).toBe(200);
    expect((await confirm(older, 'third-password')).body.message).toBe(RESET_LINK_INVALID);
    expect(await kit.db.passwordReset.count({ where: { userId: user.id, sealedToken: { not: null } } })).toBe(0);
  });

  it('says whether a link still works when it is opened, naming nothing of its account, and changes nothing', async () => {
    const user = await kit.createUser({ email: 'opener@example.com', password: 'old-password' });
    await ask(user.email);
    const { token, resetId } = await tokenOf(user.id);
    const fresh = await check(token);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ message: RESET_LINK_WORKS });
    // Opening it twice uses nothing up.
    expect((await check(token)).status).toBe(200);
    expect((await kit.db.passwordReset.findUniqueOrThrow({ where: { id: resetId } })).usedAt).toBeNull();

    expect((await confirm(token, 'brand-new-password')).status).toBe(200);
    // Used: opening the link again says so before any password is typed; unknown and expired links read the same.
    expect(await check(token)).toMatchObject({ status: 400, body: { message: RESET_LINK_INVALID } });
    expect(await check('y'.repeat(43))).toMatchObject({ status: 400, body: { message: RESET_LINK_INVALID } });
    await ask(user.email, '198.51.100.13');
    const later = await tokenOf(user.id);
    await kit.db.passwordReset.update({ where: { id: later.resetId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await check(later.token)).toMatchObject({ status: 400, body: { message: RESET_LINK_INVALID } });
    expect((await check('short')).status).toBe(400);
  });

  it('limits how often links are checked from one address', async () => {
    const limited = await createApiTestKit({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '3', TRUST_PROXY: '1' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await request(limited.app).post('/api/users/password-reset/check').set('X-Forwarded-For', '192.0.2.77').send({ token: `${'z'.repeat(42)}${i}` })).status);
      }
      expect(statuses).toEqual([400, 400, 400, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('is rate-limited per e-mail address, from any number of addresses', async () => {
    const limited = await createApiTestKit({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '3', TRUST_PROXY: '1' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await request(limited.app).post('/api/users/password-reset').set('X-Forwarded-For', `192.0.2.${i + 1}`).send({ email: 'target@example.com' })).status);
      }
      expect(statuses).toEqual([202, 202, 202, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('writes the request and the change to the audit log, with the address they came from', async () => {
    const user = await kit.createUser({ email: 'audited@example.com' });
    await ask(user.email, '203.0.113.50');
    const { token } = await tokenOf(user.id);
    await confirm(token, 'brand-new-password');
    const entries = await kit.db.auditEntry.findMany({ where: { subjectId: user.id }, orderBy: { seq: 'asc' } });
    expect(entries.map((e) => [e.action, e.actorId])).toEqual([
      ['user.password_reset_requested', null],
      ['user.password_reset', user.id],
    ]);
    expect(entries[0]!.ip).toBe('203.0.113.50');
  });
});
