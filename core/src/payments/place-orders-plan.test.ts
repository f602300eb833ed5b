import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { seedHistory } from '../../../scripts/testing/history.ts';
import { readsOf, recordingDb } from '../../../scripts/testing/query-plans.ts';
import { Prisma } from '../infra/db.ts';
import { UserError } from '../infra/errors.ts';
import { placeOrders, type PlaceOrderDeps } from './place-orders.ts';
import { createProduct } from './stock.ts';

/**
 * Placing an order checks its buyer's caps (open orders, held tags, share of a package):
 * those reads must cost what the buyer has open, never what they bought before. The
 * buyer here has 10,000 finished orders (paid, expired, late, their tags freed) and 2,000
 * paid ones still in their monitoring window (tag held), and one order open.
 */
const HISTORY = 10_000;
/** What a scan may read: the buyer's live orders and some slack, far below the history. */
const BOUND = 50;
const BUYER = '00000000-0000-4000-8000-00000000a11c';

let env: TestEnv;
let url: string;
let productId: string;

beforeAll(async () => {
  env = await createTestEnv();
  url = env.config.databaseUrl;
  await seedHistory(url, HISTORY);
  const product = await createProduct(env.runtime.db, { name: 'Hot', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('10.00'), countInStock: 1_000 });
  productId = product.id;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Paid orders whose tag is still held (monitoring window), and one order open with its item.
    await client.query(`
      INSERT INTO "Order" ("id", "userId", "status", "itemsPrice", "totalPrice", "updatedAt", "paidAt", "paymentDeadline", "paymentTag", "paidVersion")
      SELECT gen_random_uuid(), '${BUYER}', 'PAID', 10, 10, now(), now() - interval '1 hour', now() - interval '2 hours', 500000 + g, 1 FROM generate_series(1, 2000) g`);
    // The package is a hot one: its paid orders' items, the buyer's among them.
    await client.query(`
      INSERT INTO "OrderItem" ("id", "orderId", "productId", "name", "image", "price", "qty", "dailyCredit", "durationDays")
      SELECT gen_random_uuid(), o."id", '${productId}', 'Hot', '', 10, 1, 1, 30 FROM "Order" o WHERE o."paymentTag" > 500000`);
    await client.query(`
      WITH o AS (
        INSERT INTO "Order" ("id", "userId", "status", "itemsPrice", "totalPrice", "updatedAt", "paymentDeadline", "paymentTag")
        VALUES (gen_random_uuid(), '${BUYER}', 'PENDING_PAYMENT', 10, 10, now(), now() + interval '1 hour', 400001) RETURNING "id")
      INSERT INTO "OrderItem" ("id", "orderId", "productId", "name", "image", "price", "qty", "dailyCredit", "durationDays")
      SELECT gen_random_uuid(), o."id", '${productId}', 'Hot', '', 10, 2, 1, 30 FROM o`);
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
});
afterAll(async () => {
  await env?.close();
});

describe("placing an order reads the buyer's live orders only", () => {
  it("the caps count the one open order of a buyer with 12,000 finished ones (2,000 holding their tag), reading that order, not the history", async () => {
    const rec = recordingDb(url);
    const at = { price: { answer: 3000_00000000n, price: '3000', updatedAt: new Date() }, head: 1n };
    const order = { userId: BUYER, input: { orderedItems: [{ _id: productId, qty: 1 }], itemsPrice: '10.00', totalPrice: '10.00' } };
    let outcomes;
    try {
      // Two open orders at most: the open one and this one; the next is refused.
      const deps = { ...env.runtime, db: rec.db, config: { ...env.config, maxOpenOrdersPerUser: 2 }, depositFactory: { depositAddressOf: () => null } } as PlaceOrderDeps;
      outcomes = await placeOrders(deps, [order, order], at);
    } finally {
      await rec.close();
    }
    expect(outcomes[0]).not.toBeInstanceOf(UserError);
    expect(outcomes[1]).toBeInstanceOf(UserError);
    expect((outcomes[1] as UserError).message).toContain('You already have 2 unpaid orders');

    const reads = await readsOf(url, rec.queries, ['Order']);
    const tooMuch = reads.flatMap(({ sql, scans }) =>
      scans.filter((s) => s.rows > BOUND).map((s) => `${s.node} on ${s.table} (${s.index ?? 'no index'}) read ${s.rows} rows: ${sql}`),
    );
    expect(tooMuch).toEqual([]);
    // The counts and the held stock in one statement.
    expect(reads.filter(({ sql }) => sql.includes('WITH live AS'))).toHaveLength(1);
  });
});
