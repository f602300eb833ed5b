import request from 'supertest';
import { hashPassword, newReferralCode, Prisma } from '@shop/core';
import { createApp } from '../app.ts';
import { openSession } from '../middleware/auth.ts';
import { expect } from 'vitest';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { expectBooksBalanced } from '../../../scripts/testing/books.ts';

export type TestUser = { id: string; email: string; password: string; name: string; isAdmin: boolean; referralCode: string };

/**
 * One isolated api for a test file (own database, Redis prefix and, on request, anvil),
 * plus helpers to make users and requests as guest, user or admin.
 */
export async function createApiTestKit(
  opts: Parameters<typeof createTestEnv>[0] & {
    /** Checks the reconciler may leave out, for a test that makes records by hand (say why where it is set). */
    reconcileSkip?: string[];
  } = {},
) {
  const env: TestEnv = await createTestEnv(opts);
  const app = createApp(env.runtime);
  let counter = 0;
  // Hashing is slow on purpose; tests share one hash per password.
  const hashes = new Map<string, Promise<string>>();
  const hashOf = (password: string) => {
    if (!hashes.has(password)) hashes.set(password, hashPassword(password));
    return hashes.get(password) as Promise<string>;
  };

  async function createUser(over: Partial<{ name: string; email: string; password: string; isAdmin: boolean; activeBalance: string; passiveBalance: string; referredById: string }> = {}): Promise<TestUser> {
    counter++;
    const password = over.password ?? 'secret123';
    const user = await env.runtime.db.user.create({
      data: {
        name: over.name ?? `User ${counter}`,
        email: (over.email ?? `user${counter}-${Date.now()}@example.com`).toLowerCase(),
        passwordHash: await hashOf(password),
        isAdmin: over.isAdmin ?? false,
        activeBalance: new Prisma.Decimal(over.activeBalance ?? '0'),
        passiveBalance: new Prisma.Decimal(over.passiveBalance ?? '0'),
        referralCode: newReferralCode(),
        referredById: over.referredById,
      },
    });
    return { id: user.id, email: user.email, password, name: user.name, isAdmin: user.isAdmin, referralCode: user.referralCode };
  }

  async function cookieFor(user: { id: string }): Promise<string> {
    return (await openSession(env.runtime, user.id)).cookie;
  }

  /** A supertest request, as a guest (no user) or signed in as `user`. */
  async function as(user: { id: string } | null) {
    const cookie = user ? await cookieFor(user) : undefined;
    const wrap = (method: 'get' | 'post' | 'put' | 'delete' | 'patch', path: string) => {
      const r = request(app)[method](path);
      return cookie ? r.set('Cookie', cookie) : r;
    };
    return {
      get: (path: string) => wrap('get', path),
      post: (path: string) => wrap('post', path),
      put: (path: string) => wrap('put', path),
      delete: (path: string) => wrap('delete', path),
      patch: (path: string) => wrap('patch', path),
    };
  }

  return {
    env,
    app,
    db: env.runtime.db,
    createUser,
    cookieFor,
    as,
    /** Proves the books (the reconciler finds nothing), then drops the test's world. */
    async close() {
      try {
        await expectBooksBalanced(env.runtime, expect.getState().testPath ?? 'this test file', { skip: opts.reconcileSkip });
      } finally {
        await env.close();
      }
    },
  };
}

export type ApiTestKit = Awaited<ReturnType<typeof createApiTestKit>>;
