import { createDb, createProduct, getConfig, hashPassword, newReferralCode, Prisma, type Db } from '@shop/core';

/**
 * Idempotent demo data: the package catalogue (matched by name, so a rerun adds only
 * what is missing) and the admin from SEED_ADMIN_EMAIL / SEED_ADMIN_PASSWORD. The admin
 * (named 'Ada Admin', so the header's user menu is told from its admin menu) is created
 * only when the e-mail is free: an existing account is never promoted or
 * changed (whoever registered that address would otherwise become an admin).
 */
export const demoProducts = [
  { name: 'Starter Package', image: '/images/starter.svg', price: '25.00', dailyCredit: '0.50', countInStock: 100, durationDays: 30, rating: '4.0', numReviews: 12, description: 'A first step: a small package that credits a little every day for a month.' },
  { name: 'Silver Package', image: '/images/silver.svg', price: '99.99', dailyCredit: '2.20', countInStock: 50, durationDays: 60, rating: '4.5', numReviews: 31, description: 'Twice the term of the starter package and a steady daily credit.' },
  { name: 'Gold Package', image: '/images/gold.svg', price: '249.50', dailyCredit: '6.00', countInStock: 25, durationDays: 90, rating: '4.7', numReviews: 18, description: 'Our most popular package: a generous daily credit for three months.' },
  { name: 'Platinum Package', image: '/images/platinum.svg', price: '499.00', dailyCredit: '13.00', countInStock: 10, durationDays: 120, rating: '3.5', numReviews: 7, description: 'For committed members: a large daily credit over four months.' },
  { name: 'Diamond Package', image: '/images/diamond.svg', price: '999.00', dailyCredit: '28.00', countInStock: 5, durationDays: 180, rating: '5.0', numReviews: 3, description: 'The top package, in limited supply: half a year of the highest daily credit.' },
  { name: 'Sampler Package', image: '/images/sampler.svg', price: '9.90', dailyCredit: '0.15', countInStock: 0, durationDays: 14, rating: '2.5', numReviews: 2, description: 'A two-week taste of the shop. Sold out for now; more soon.' },
];

export type SeedResult = {
  products: number;
  adminEmail: string;
  /** created: a new admin; exists: the admin was there already; taken: a non-admin account holds the e-mail. */
  admin: 'created' | 'exists' | 'taken';
};

export async function seed(db: Db, admin: { email: string; password: string }): Promise<SeedResult> {
  for (const p of demoProducts) {
    const data = {
      ...p,
      price: new Prisma.Decimal(p.price),
      dailyCredit: new Prisma.Decimal(p.dailyCredit),
      rating: new Prisma.Decimal(p.rating),
    };
    const existing = await db.product.findFirst({ where: { name: p.name, deletedAt: null } });
    if (!existing) await createProduct(db, data);
  }
  const email = admin.email.toLowerCase();
  const existing = await db.user.findUnique({ where: { email }, select: { isAdmin: true } });
  let outcome: SeedResult['admin'] = existing ? (existing.isAdmin ? 'exists' : 'taken') : 'created';
  if (!existing) {
    try {
      await db.user.create({
        data: { name: 'Ada Admin', email, passwordHash: await hashPassword(admin.password), isAdmin: true, referralCode: newReferralCode() },
      });
    } catch (err) {
      // Registered between the check and the insert: that account stays as it is.
      if (!(err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002')) throw err;
      outcome = 'taken';
    }
  }
  return { products: await db.product.count({ where: { deletedAt: null } }), adminEmail: email, admin: outcome };
}

/** What the seed did about the admin, in words for the console. */
export function describeSeedAdmin(result: SeedResult): string {
  switch (result.admin) {
    case 'created':
      return `admin ${result.adminEmail} created`;
    case 'exists':
      return `admin ${result.adminEmail} exists already; left as it is`;
    case 'taken':
      return `no admin created: ${result.adminEmail} belongs to an existing account that is not an admin, and the seed never changes an existing account (set SEED_ADMIN_EMAIL to a free address)`;
  }
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const config = getConfig();
  if (!config.seedAdminPassword) {
    console.error('SEED_ADMIN_PASSWORD is required outside development');
    process.exit(1);
  }
  const db = createDb({ url: config.databaseUrl });
  const result = await seed(db, { email: config.seedAdminEmail, password: config.seedAdminPassword });
  console.log(`seeded ${result.products} packages; ${describeSeedAdmin(result)}`);
  await db.$disconnect();
}
