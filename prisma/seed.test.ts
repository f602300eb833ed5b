import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, newReferralCode, verifyPassword } from '@shop/core';
import { createTestEnv, type TestEnv } from '../scripts/testing/test-env.ts';
import { describeSeedAdmin, seed } from './seed.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

describe('seed', () => {
  it('creates the admin when the e-mail is free, and a rerun changes nothing', async () => {
    const first = await seed(env.runtime.db, { email: 'Boss@Example.com', password: 'boss-pass-1' });
    expect(first.admin).toBe('created');
    expect(first.products).toBe(6);
    const again = await seed(env.runtime.db, { email: 'boss@example.com', password: 'other-pass-2' });
    expect(again).toMatchObject({ admin: 'exists', products: 6 });
    const boss = await env.runtime.db.user.findUniqueOrThrow({ where: { email: 'boss@example.com' } });
    expect(boss.isAdmin).toBe(true);
    // A person's name: the header shows it on the user menu, next to the admin menu.
    expect(boss.name).toBe('Ada Admin');
    expect(await verifyPassword(boss.passwordHash, 'boss-pass-1')).toBe(true);
  });

  it('never promotes or changes an existing account that holds the seed e-mail, and says so', async () => {
    const db = env.runtime.db;
    await db.user.create({
      data: { name: 'Mallory', email: 'admin@example.com', passwordHash: await hashPassword('mallory-pass'), referralCode: newReferralCode() },
    });
    const result = await seed(db, { email: 'admin@example.com', password: 'admin12345' });
    expect(result.admin).toBe('taken');
    expect(describeSeedAdmin(result)).toMatch(/no admin created: admin@example.com belongs to an existing account/);
    const mallory = await db.user.findUniqueOrThrow({ where: { email: 'admin@example.com' } });
    expect(mallory).toMatchObject({ name: 'Mallory', isAdmin: false });
    expect(await verifyPassword(mallory.passwordHash, 'mallory-pass')).toBe(true);
  });
});
