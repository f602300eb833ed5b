import { expect } from 'vitest';
import { hashPassword, newReferralCode, Prisma, type Db } from '@shop/core';
import { expectBooksBalanced } from './books.ts';
import { createTestEnv, type TestEnv } from './test-env.ts';

export type TestUser = { id: string; email: string; password: string; name: string; isAdmin: boolean; referralCode: string };
export type UserOverrides = Partial<{ name: string; email: string; password: string; isAdmin: boolean; activeBalance: string; passiveBalance: string; referredById: string }>;

/** Makes test users straight in the database (the api kit and the core kit share it). */
export function userMaker(db: Db) {
  let counter = 0;
  // Hashing is slow on purpose; tests share one hash per password.
  const hashes = new Map<string, Promise<string>>();
  const hashOf = (password: string) => {
    if (!hashes.has(password)) hashes.set(password, hashPassword(password));
    return hashes.get(password) as Promise<string>;
  };
  return async function createUser(over: UserOverrides = {}): Promise<TestUser> {
    counter++;
    const password = over.password ?? 'secret123';
    const user = await db.user.create({
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
    // As registering does: the referrer's count of live referrals (the profile reads it).
    if (over.referredById) await db.$executeRaw`UPDATE "User" SET "referralCount" = "referralCount" + 1 WHERE "id" = ${over.referredById}::uuid`;
    return { id: user.id, email: user.email, password, name: user.name, isAdmin: user.isAdmin, referralCode: user.referralCode };
  };
}

export type KitOptions = Parameters<typeof createTestEnv>[0] & {
  /** Checks the reconciler may leave out, for a test that makes records by hand (say why where it is set). */
  reconcileSkip?: string[];
};

/** Closes a test's world after proving its books (the reconciler finds nothing). */
export async function closeProvingBooks(env: TestEnv, opts: KitOptions): Promise<void> {
  try {
    await expectBooksBalanced(env.runtime, expect.getState().testPath ?? 'this test file', { skip: opts.reconcileSkip });
  } finally {
    await env.close();
  }
}

/**
 * What a core test needs: an isolated world (own database, Redis prefix and, on request,
 * anvil), users, and the books proven at close. No HTTP: core is tested through its own
 * functions; the api's routes are tested in api/ (api/src/testing/api-test-kit.ts).
 */
export async function createCoreTestKit(opts: KitOptions = {}) {
  const env = await createTestEnv(opts);
  return { env, db: env.runtime.db, createUser: userMaker(env.runtime.db), close: () => closeProvingBooks(env, opts) };
}

export type CoreTestKit = Awaited<ReturnType<typeof createCoreTestKit>>;
