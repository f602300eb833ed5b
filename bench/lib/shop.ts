import { randomBytes } from 'node:crypto';
import { createProduct, hashPassword, newReferralCode, Prisma, type AppConfig, type Db } from '@shop/core';
import { openSession } from '../../api/src/middleware/auth.ts';

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
