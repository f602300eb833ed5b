// The flash-sale baseline: a bare Express server whose POST /api/orders issues the SQL
// writes an order needs with the `pg` driver, one transaction per order: the order,
// its item, its first quote, and the stock update (the package row and its movement).
// No session, no validation, no pricing beyond the package's row: what is left is what
// Postgres itself costs. Configured by the environment; reports its URL over IPC.
import { randomInt } from 'node:crypto';
import type { Server } from 'node:http';
import express from 'express';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const userId = process.env.BENCH_USER_ID ?? '';
const productId = process.env.BENCH_PRODUCT_ID ?? '';
const receiving = process.env.RECEIVING_ADDRESS ?? '';

async function placeOrder(): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const product = await client.query<{ name: string; image: string; price: string; dailyCredit: string; durationDays: number }>(
      'SELECT "name", "image", "price", "dailyCredit", "durationDays" FROM "Product" WHERE "id" = $1',
      [productId],
    );
    const p = product.rows[0];
    if (!p) throw new Error('the benchmark package is missing');
    const now = new Date();
    const order = await client.query<{ id: string }>(
      `INSERT INTO "Order" ("id", "userId", "itemsPrice", "totalPrice", "paymentTag", "placedAtBlock", "createdAt", "updatedAt", "paymentDeadline", "stockReserved")
       VALUES (gen_random_uuid(), $1, $2, $2, $3, 1, $4, $4, $5, true) RETURNING "id"`,
      [userId, p.price, randomInt(1, 1_000_000), now, new Date(now.getTime() + 30 * 60_000)],
    );
    const orderId = order.rows[0]!.id;
    await client.query(
      `INSERT INTO "OrderItem" ("id", "orderId", "productId", "name", "image", "price", "qty", "dailyCredit", "durationDays")
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 1, $6, $7)`,
      [orderId, productId, p.name, p.image, p.price, p.dailyCredit, p.durationDays],
    );
    await client.query(
      `INSERT INTO "PaymentQuote" ("id", "orderId", "unitUsd", "usdAmount", "amount", "receivingAddress", "chainId", "createdAt", "expiresAt")
       VALUES (gen_random_uuid(), $1, 3000, $2, 8333333333333333, $3, 1, $4, $5)`,
      [orderId, p.price, receiving, now, new Date(now.getTime() + 15 * 60_000)],
    );
    const taken = await client.query(
      'UPDATE "Product" SET "countInStock" = "countInStock" - 1, "updatedAt" = now() WHERE "id" = $1 AND "countInStock" >= 1',
      [productId],
    );
    if (taken.rowCount !== 1) throw new Error('out of stock');
    await client.query(
      `INSERT INTO "StockMovement" ("id", "productId", "orderId", "kind", "delta") VALUES (gen_random_uuid(), $1, $2, 'RESERVED', -1)`,
      [productId, orderId],
    );
    await client.query('COMMIT');
    return orderId;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

const app = express();
app.disable('x-powered-by');
app.post('/api/orders', express.json({ limit: '100kb' }), (_req, res) => {
  // A tag drawn twice (one in a few hundred thousand) is tried again, as the api does.
  const attempt = (left: number): Promise<string> => placeOrder().catch((err: { code?: string }) => (err.code === '23505' && left > 0 ? attempt(left - 1) : Promise.reject(err)));
  attempt(3).then(
    (id) => res.status(201).json({ _id: id }),
    (err: Error) => res.status(500).json({ message: err.message }),
  );
});

const server: Server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ type: 'listening', url: `http://127.0.0.1:${port}` });
});
const stop = () => {
  server.close(() => void pool.end().finally(() => process.exit(0)));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.once('disconnect', stop);
process.once('SIGTERM', stop);
