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

describe("a referral link's referrer", () => {
  it('names who a code belongs to (their name only), in any case; an unknown or deleted one is a 404 with the message registration gives', async () => {
    const res = await request(kit.app).get(`/api/users/referrer?referralCode=${alice.referralCode.toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Alice' });

    const unknown = await request(kit.app).get('/api/users/referrer?referralCode=NOPE123456');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Unknown referral code');
    const gone = await kit.createUser({ name: 'Gone' });
    await kit.db.user.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    expect((await request(kit.app).get(`/api/users/referrer?referralCode=${gone.referralCode}`)).status).toBe(404);
  });

  it('refuses a missing, repeated or overlong code with a 400 naming the field', async () => {
    for (const query of ['', '?referralCode=', '?referralCode=A&referralCode=B', `?referralCode=${'A'.repeat(33)}`]) {
      const res = await request(kit.app).get(`/api/users/referrer${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(/^Referral code\b/);
    }
  });

  it('is limited per address like sign-in: codes cannot be tried without end', async () => {
    const limited = await createApiTestKit({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '2' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await request(limited.app).get(`/api/users/referrer?referralCode=GUESS${i}`)).status);
      expect(statuses).toEqual([404, 404, 429]);
    } finally {
      await limited.close();
    }
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
