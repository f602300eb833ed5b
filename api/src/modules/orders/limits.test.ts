import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createProduct, Prisma } from '@shop/core';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

/** The limits that keep one account from holding stock or loading the node for everyone. */
let kit: ApiTestKit;
let productId: string;

beforeAll(async () => {
  kit = await createApiTestKit({
    chain: true,
    env: { MAX_OPEN_ORDERS_PER_USER: '2', PAYMENT_REPORTS_PER_USER_PER_HOUR: '6', PAYMENT_REPORTS_PER_ORDER_PER_HOUR: '4', MAX_PENDING_REPORTS_PER_ORDER: '2', MAX_HELD_TAGS_PER_USER: '5' },
  });
  const p = await createProduct(kit.db, { name: 'Pkg', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('5.00'), countInStock: 100 });
  productId = p.id;
});
afterAll(async () => {
  await kit?.close();
});

const place = async (user: TestUser) =>
  (await kit.as(user)).post('/api/orders').send({ orderedItems: [{ _id: productId, qty: 1 }], itemsPrice: 5, totalPrice: 5 });
const hash = () => `0x${randomBytes(32).toString('hex')}`;
const stock = async () => (await kit.db.product.findUniqueOrThrow({ where: { id: productId } })).countInStock;

describe("one account's hold on stock and tags", () => {
  it("one account's unpaid orders hold at most a quarter of a package's stock (five at least)", async () => {
    const big = await createProduct(kit.db, { name: 'Bulk', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('1.00'), countInStock: 1000 });
    const buyer = await kit.createUser();
    const order = (qty: number) => kit.as(buyer).then((as) => as.post('/api/orders').send({ orderedItems: [{ _id: big.id, qty }], itemsPrice: qty, totalPrice: qty }));
    const all = await order(1000);
    expect(all.status).toBe(409);
    expect(all.body.message).toBe('At most 250 of Bulk can wait in one buyer\'s unpaid orders: order fewer, or pay for an open order first.');
    expect((await order(200)).status).toBe(201);
    const more = await order(51);
    expect(more.status).toBe(409);
    expect(more.body.message).toBe('At most 250 of Bulk can wait in one buyer\'s unpaid orders (yours hold 200): order fewer, or pay for an open order first.');
    expect((await order(50)).status).toBe(201);
    // Another buyer holds their own quarter; a package with little stock can still be bought up to five at once.
    const other = await kit.as(await kit.createUser());
    expect((await other.post('/api/orders').send({ orderedItems: [{ _id: big.id, qty: 187 }], itemsPrice: 187, totalPrice: 187 })).status).toBe(201);
    const few = await createProduct(kit.db, { name: 'Few', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('1.00'), countInStock: 5 });
    expect((await (await kit.as(await kit.createUser())).post('/api/orders').send({ orderedItems: [{ _id: few.id, qty: 5 }], itemsPrice: 5, totalPrice: 5 })).status).toBe(201);
  });

  it('an account that keeps cancelling or abandoning orders cannot hold more than its share of tags', async () => {
    const buyer = await kit.createUser();
    // Each cancelled (or expired) order keeps its tag through the monitoring window.
    for (let i = 0; i < 5; i++) {
      const placed = await place(buyer);
      expect(placed.status).toBe(201);
      expect((await (await kit.as(buyer)).post(`/api/orders/${placed.body._id}/cancel`)).status).toBe(200);
    }
    const sixth = await place(buyer);
    expect(sixth.status).toBe(409);
    expect(sixth.body.message).toBe('You have 5 unpaid orders from the last 24 hours (cancelled, expired or open): pay for one, or try again once the oldest is 24 hours old.');
  });
});

describe('open unpaid orders per user', () => {
  it('refuses a third unpaid order with a 409 that says to pay or wait, taking no stock; a settled one frees a place', async () => {
    const buyer = await kit.createUser();
    expect((await place(buyer)).status).toBe(201);
    const second = await place(buyer);
    expect(second.status).toBe(201);
    const before = await stock();
    const third = await place(buyer);
    expect(third.status).toBe(409);
    expect(third.body.message).toBe('You already have 2 unpaid orders. Pay for one, cancel one, or wait until they expire, before placing another.');
    // One waiting on a late transfer (a few cents sent with its tag after its quote lapsed) still holds its stock: it counts.
    await kit.db.order.update({ where: { id: second.body._id }, data: { status: 'LATE' } });
    expect((await place(buyer)).status).toBe(409);
    expect(await stock()).toBe(before);
    expect(await kit.db.order.count({ where: { userId: buyer.id } })).toBe(2);
    // Another buyer is not affected.
    expect((await place(await kit.createUser())).status).toBe(201);
    await kit.db.order.update({ where: { id: second.body._id }, data: { status: 'EXPIRED' } });
    expect((await place(buyer)).status).toBe(201);
  });

  it('holds under concurrency: of 6 orders sent at once, 2 are placed', async () => {
    const buyer = await kit.createUser();
    const before = await stock();
    const results = await Promise.all(Array.from({ length: 6 }, () => place(buyer)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409, 409]);
    expect(await stock()).toBe(before - 2);
  });
});

describe('payment reports', () => {
  it('caps the reported hashes of one order still waiting on chain; a repeat of a known hash is fine', async () => {
    const buyer = await kit.createUser();
    const order = (await place(buyer)).body._id as string;
    const as = await kit.as(buyer);
    const [a, b] = [hash(), hash()];
    expect((await as.put(`/api/orders/${order}/purchased`).send({ txHash: a })).status).toBe(202);
    expect((await as.put(`/api/orders/${order}/purchased`).send({ txHash: b })).status).toBe(202);
    const third = await as.put(`/api/orders/${order}/purchased`).send({ txHash: hash() });
    expect(third.status).toBe(409);
    expect(third.body.message).toMatch(/^This order already has 2 reported payments waiting to be found or confirmed on chain/);
    expect((await as.put(`/api/orders/${order}/purchased`).send({ txHash: a })).status).toBe(202);
    expect(await kit.db.paymentReport.count({ where: { orderId: order } })).toBe(2);
  });

  it('limits reports per order and per account with a 429 that says when to try again', async () => {
    const buyer = await kit.createUser();
    const [o1, o2] = [(await place(buyer)).body._id as string, (await place(buyer)).body._id as string];
    const as = await kit.as(buyer);
    const known = hash();
    const perOrder: number[] = [];
    for (let i = 0; i < 5; i++) perOrder.push((await as.put(`/api/orders/${o1}/purchased`).send({ txHash: known })).status);
    expect(perOrder).toEqual([202, 202, 202, 202, 429]);
    const limited = await as.put(`/api/orders/${o1}/purchased`).send({ txHash: known });
    expect(limited.body.message).toMatch(/^Too many payment reports for this order, please try again in \d+ seconds$/);
    // The account had 6 reports counted (the refused ones count too): the next is refused on any order.
    const other = await as.put(`/api/orders/${o2}/purchased`).send({ txHash: hash() });
    expect(other.status).toBe(429);
    expect(other.body.message).toMatch(/^Too many payment reports from your account, please try again in \d+ seconds$/);
  });
});
