import { randomBytes } from 'node:crypto';
import { createProduct, hashPassword, newReferralCode, Prisma, type AppConfig, type Db } from '@shop/core';
import { openSession, SESSION_COOKIE, signSessionToken } from '../../api/src/middleware/auth.ts';

/** A buyer and the session cookie the api would have set at login (as api-test-kit does). */
export async function createBuyer(db: Db, config: AppConfig): Promise<{ id: string; cookie: string }> {
  const user = await db.user.create({
    data: {
      name: 'Bench Buyer',
      email: `buyer-${randomBytes(4).toString('hex')}@bench.local`,
      passwordHash: await hashPassword(randomBytes(12).toString('hex')),
      referralCode: newReferralCode(),
    },
  });
  return { id: user.id, cookie: (await openSession({ config, db }, user.id)).cookie };
}

/**
 * `n` buyers at once, each with a session and its cookie, written in two statements (one
 * password hash shared: none of them signs in).
 */
export async function createBuyers(db: Db, config: AppConfig, n: number): Promise<{ id: string; cookie: string }[]> {
  const tag = randomBytes(4).toString('hex');
  const passwordHash = await hashPassword(randomBytes(12).toString('hex'));
  const expiresAt = new Date(Date.now() + config.sessionDays * 24 * 3600_000);
  const sessions = await db.$queryRaw<{ id: string; userId: string }[]>`
    WITH u AS (
      INSERT INTO "User" ("id", "name", "email", "passwordHash", "referralCode", "updatedAt")
      SELECT gen_random_uuid(), 'Bench Buyer ' || g, 'buyer-' || ${tag} || '-' || g || '@bench.local', ${passwordHash}, 'b' || ${tag} || g, now()
      FROM generate_series(1, ${n}::int) g RETURNING "id")
    INSERT INTO "Session" ("id", "userId", "expiresAt") SELECT gen_random_uuid(), u."id", ${expiresAt} FROM u RETURNING "id", "userId"`;
  return Promise.all(
    sessions.map(async (s) => ({ id: s.userId, cookie: `${SESSION_COOKIE}=${await signSessionToken(config.jwtSecret, s.userId, s.id, expiresAt)}` })),
  );
}

/** A $25 package with as much stock as the benchmark needs. */
export async function createBenchProduct(db: Db, countInStock: number): Promise<{ id: string; price: string }> {
  const product = await createProduct(db, {
    name: 'Bench Package',
    image: '/images/gold.svg',
    description: 'Stock for the order benchmarks.',
    price: new Prisma.Decimal('25.00'),
    dailyCredit: new Prisma.Decimal('1.00'),
    countInStock,
    durationDays: 30,
  });
  return { id: product.id, price: product.price.toFixed(2) };
}

/** The body the cart page posts for one unit of a product. */
export const orderBody = (productId: string, price: string) =>
  JSON.stringify({ orderedItems: [{ _id: productId, qty: 1 }], itemsPrice: price, totalPrice: price });
