import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, expireOrders, Prisma } from '@shop/core';
import { setEthUsdPrice } from '../../../../scripts/lib/price-feed-mock.ts';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

let kit: ApiTestKit;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

async function product(over: Partial<{ price: string; countInStock: number; name: string; dailyCredit: string }> = {}) {
  return createProduct(kit.db, { name: over.name ?? 'Pkg', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal(over.price ?? '10.50'), countInStock: over.countInStock ?? 10, dailyCredit: new Prisma.Decimal(over.dailyCredit ?? '1'), durationDays: 30 });
}

beforeAll(async () => {
  // One test marks an order PAID by hand to show paid orders cannot be deleted: it has
  // no transfer behind it and no daily credit term, so those checks are left out; the
  // reconciler checks the rest.
  kit = await createApiTestKit({ chain: true, ethUsd: '3000', reconcileSkip: ['paid-not-covered', 'paid-without-term'] });
  admin = await kit.createUser({ isAdmin: true });
  alice = await kit.createUser({ name: 'Alice' });
  bob = await kit.createUser({ name: 'Bob' });
});
afterAll(async () => {
  await kit?.close();
});

describe('placing orders', () => {
  it('prices the order on the server, reserves stock and returns a tagged quote', async () => {
    const p = await product({ price: '10.50', countInStock: 5 });
    const res = await (await kit.as(alice)).post('/api/orders').send({
      orderedItems: [{ _id: p.id, qty: 2, price: 0.01, name: 'cheap?' }],
      itemsPrice: '21.00',
      totalPrice: 21,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ totalPrice: 21, itemsPrice: 21, isPaid: false, status: 'PENDING_PAYMENT', orderedItems: [{ name: 'Pkg', price: 10.5, qty: 2, product: p.id }] });
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: p.id } })).countInStock).toBe(3);
    const detail = await (await kit.as(alice)).get(`/api/orders/${res.body._id}`);
    expect(detail.status).toBe(200);
    // What placing answers is the order as it is stored.
    for (const [key, value] of Object.entries(res.body)) expect(detail.body[key], key).toEqual(value);
    const q = detail.body.quote;
    expect(q).toMatchObject({ ethUsd: '3000.00000000', chainId: 1, receivingAddress: kit.env.config.receivingAddress, usdAmount: 21 });
    // $21 at $3000 = 0.007 ETH, plus the order's tag below a millionth of an ETH.
    const wei = BigInt(q.amountWei);
    expect(wei / 10n ** 12n).toBe(7000n);
    const order = await kit.db.order.findUniqueOrThrow({ where: { id: res.body._id } });
    expect((wei % 10n ** 12n) / 10n ** 3n).toBe(BigInt(order.paymentTag!));
    expect(q.amountEth).toBe('0.007000');
    // The same quote is served until it expires.
    const again = await (await kit.as(alice)).get(`/api/orders/${res.body._id}`);
    expect(again.body.quote.amountWei).toBe(q.amountWei);
  });

  it("shows a quote's ETH as one figure to the buyer and to the admin, whatever tag its lowest digits carry", async () => {
    const p = await product({ price: '10.50', countInStock: 5 });
    const placed = await (await kit.as(alice)).post('/api/orders').send({ orderedItems: [{ _id: p.id, qty: 2 }], itemsPrice: '21.00', totalPrice: '21.00' });
    expect(placed.status).toBe(201);
    const orderId = placed.body._id as string;
    // The highest tag: over half a millionth of an ETH below the quoted 0.007 ETH.
    const quote = await kit.db.paymentQuote.findFirstOrThrow({ where: { orderId } });
    await kit.db.paymentQuote.update({ where: { id: quote.id }, data: { amount: new Prisma.Decimal('7000999999999000') } });
    const buyerView = await (await kit.as(alice)).get(`/api/orders/${orderId}`);
    const adminView = await (await kit.as(admin)).get(`/api/admin/orders/${orderId}`);
    expect(buyerView.body.quote.amountEth).toBe('0.007000');
    expect(adminView.body.quotes.items[0].amountEth).toBe('0.007000');
  });

  it('refuses a draft package (not on sale) with a 400 naming it, taking no stock; once published it can be ordered', async () => {
    // $3 over its term for $5: one admin may publish it (a package paying more waits for a second admin: products.test.ts).
    const p = await product({ price: '5.00', countInStock: 4, dailyCredit: '0.10' });
    await kit.db.product.update({ where: { id: p.id }, data: { publishedAt: null } });
    const body = { orderedItems: [{ _id: p.id, qty: 1 }], itemsPrice: '5.00', totalPrice: '5.00' };
    const refused = await (await kit.as(alice)).post('/api/orders').send(body);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: `This package is not on sale: ${p.id}` });
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: p.id } })).countInStock).toBe(4);
    expect(await kit.db.orderItem.count({ where: { productId: p.id } })).toBe(0);
    const published = await (await kit.as(admin)).post(`/api/admin/products/${p.id}/publish`).send({ published: true });
    expect(published.status).toBe(200);
    expect((await (await kit.as(alice)).post('/api/orders').send(body)).status).toBe(201);
  });

  it('orders sent together are each judged alone: a wrong total, a hidden package or too few items refuse only that order', async () => {
    const p = await product({ price: '5.00', countInStock: 4 });
    const hidden = await product({ price: '5.00', countInStock: 4 });
    await kit.db.product.update({ where: { id: hidden.id }, data: { deletedAt: new Date() } });
    const buyers = await Promise.all(Array.from({ length: 6 }, () => kit.createUser()));
    const body = (id: string, qty: number, total = (5 * qty).toFixed(2)) => ({ orderedItems: [{ _id: id, qty }], itemsPrice: total, totalPrice: total });
    const bodies = [body(p.id, 1), body(p.id, 1, '1.00'), body(hidden.id, 1), body(p.id, 1), body(p.id, 2), body(p.id, 1)];
    const answers = await Promise.all(bodies.map(async (b, i) => (await kit.as(buyers[i]!)).post('/api/orders').send(b)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses[1]).toBe(409);
    expect(answers[1]!.body.message).toBe('Prices have changed: the total is now $5.00. Please review your cart.');
    expect(statuses[2]).toBe(400);
    expect(answers[2]!.body.message).toBe(`Package not found: ${hidden.id}`);
    // Four items for five asked: whichever order comes last is refused, and only it.
    expect(statuses.filter((s, i) => [0, 3, 4, 5].includes(i) && s === 409)).toHaveLength(1);
    const short = answers.find((a, i) => [0, 3, 4, 5].includes(i) && a.status === 409)!;
    expect(short.body.message).toMatch(/^Not enough stock for Pkg: [01] left$/);
    const placed = answers.filter((a) => a.status === 201).map((a) => a.body._id as string);
    const units = await kit.db.orderItem.aggregate({ where: { orderId: { in: placed } }, _sum: { qty: true } });
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: p.id } })).countInStock).toBe(4 - units._sum.qty!);
    expect(await kit.db.order.count({ where: { userId: { in: buyers.map((b) => b.id) } } })).toBe(3);
    const moved = await kit.db.stockMovement.aggregate({ where: { productId: p.id, kind: 'RESERVED' }, _sum: { delta: true } });
    expect(moved._sum.delta).toBe(-units._sum.qty!);
  });

  it('a client total that differs from the server price is a 409 with the real total; nothing is reserved', async () => {
    const p = await product({ price: '10.50', countInStock: 5 });
    const res = await (await kit.as(alice)).post('/api/orders').send({ orderedItems: [{ _id: p.id, qty: 1 }], itemsPrice: '1.00', totalPrice: '1.00' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Prices have changed: the total is now $10.50. Please review your cart.');
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: p.id } })).countInStock).toBe(5);
  });

  it('refuses empty orders, unknown packages, too much quantity and junk with clear messages', async () => {
    const p = await product({ countInStock: 1 });
    // A package an admin created and has not priced yet: its daily credit would be free.
    const free = await product({ price: '0.00', countInStock: 5 });
    const as = await kit.as(alice);
    const before = await kit.db.order.count();
    const cases: [unknown, number, RegExp][] = [
      [{ orderedItems: [], itemsPrice: 0, totalPrice: 0 }, 400, /^No order items$/],
      [{ orderedItems: [{ _id: '6f1b7c3e-9a55-4d57-8f6e-3c2f4b1a0d11', qty: 1 }], itemsPrice: 1, totalPrice: 1 }, 400, /Package not found/],
      [{ orderedItems: [{ _id: p.id, qty: 2 }], itemsPrice: 21, totalPrice: 21 }, 409, /Not enough stock for Pkg: 1 left/],
      [{ orderedItems: [{ _id: p.id, qty: 0 }], itemsPrice: 0, totalPrice: 0 }, 400, /qty/],
      [{ orderedItems: [{ _id: free.id, qty: 1 }], itemsPrice: 0, totalPrice: 0 }, 409, /^This order comes to \$0\.00: a package without a price cannot be ordered$/],
      [{ orderedItems: [{ _id: p.id, qty: 1 }, { _id: p.id, qty: 1 }], itemsPrice: 21, totalPrice: 21 }, 400, /only once/],
      [{ orderedItems: 'everything', itemsPrice: 1, totalPrice: 1 }, 400, /^Ordered items\b/],
      [{ orderedItems: [{ _id: 'x', qty: 1 }], itemsPrice: 1, totalPrice: -1 }, 400, /./],
    ];
    for (const [body, status, message] of cases) {
      const res = await as.post('/api/orders').send(body as object);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toMatch(message);
    }
    expect(await kit.db.order.count()).toBe(before);
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: p.id } })).countInStock).toBe(1);
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: free.id } })).countInStock).toBe(5);
  });

  it('concurrent orders for the last items never take stock below zero', async () => {
    const p = await product({ price: '5.00', countInStock: 3 });
    const buyers = await Promise.all(Array.from({ length: 10 }, () => kit.createUser()));
    const results = await Promise.all(
      buyers.map(async (u) => (await kit.as(u)).post('/api/orders').send({ orderedItems: [{ _id: p.id, qty: 1 }], itemsPrice: 5, totalPrice: 5 })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: p.id } })).countInStock).toBe(0);
    const tags = (await kit.db.order.findMany({ where: { items: { some: { productId: p.id } } } })).map((o) => o.paymentTag);
    expect(new Set(tags).size).toBe(3);
  });

  it('orders naming the same packages in opposite orders, all at once, all go through', async () => {
    const a = await product({ name: 'A', price: '1.00', countInStock: 100 });
    const b = await product({ name: 'B', price: '2.00', countInStock: 100 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => kit.createUser()));
    const results = await Promise.all(
      buyers.map(async (u, i) => {
        const items = [{ _id: a.id, qty: 1 }, { _id: b.id, qty: 2 }];
        return (await kit.as(u)).post('/api/orders').send({ orderedItems: i % 2 ? items.reverse() : items, itemsPrice: 5, totalPrice: 5 });
      }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: a.id } })).countInStock).toBe(80);
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: b.id } })).countInStock).toBe(60);
  });

  it('unpaid orders expire after the payment window and give their stock back, once', async () => {
    const p = await product({ countInStock: 4 });
    const res = await (await kit.as(alice)).post('/api/orders').send({ orderedItems: [{ _id: p.id, qty: 3 }], itemsPrice: 31.5, totalPrice: 31.5 });
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: p.id } })).countInStock).toBe(1);
    const later = new Date(Date.now() + (kit.env.config.paymentWindowMinutes + 1) * 60_000);
    expect((await expireOrders(kit.db, kit.env.config, later)).expired).toBeGreaterThanOrEqual(1);
    await expireOrders(kit.db, kit.env.config, later);
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: p.id } })).countInStock).toBe(4);
    const detail = await (await kit.as(alice)).get(`/api/orders/${res.body._id}`);
    expect(detail.body).toMatchObject({ status: 'EXPIRED', quote: null });
  });

  it('a buyer cancels their own unpaid order: its stock and its place among unpaid orders are free at once, and it offers no quote', async () => {
    const p = await product({ countInStock: 4 });
    const placed = await (await kit.as(alice)).post('/api/orders').send({ orderedItems: [{ _id: p.id, qty: 3 }], itemsPrice: 31.5, totalPrice: 31.5 });
    expect(placed.status).toBe(201);
    const id = placed.body._id as string;
    // Another buyer's order is not found, as for every other call.
    expect((await (await kit.as(bob)).post(`/api/orders/${id}/cancel`)).status).toBe(404);
    const res = await (await kit.as(alice)).post(`/api/orders/${id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Order cancelled', order: { _id: id, status: 'CANCELLED', isPaid: false } });
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: p.id } })).countInStock).toBe(4);
    const detail = await (await kit.as(alice)).get(`/api/orders/${id}`);
    expect(detail.body).toMatchObject({ status: 'CANCELLED', quote: null });
    const again = await (await kit.as(alice)).post(`/api/orders/${id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This order is cancelled already');
    // A paid order is a financial record.
    const paid = await (await kit.as(alice)).post('/api/orders').send({ orderedItems: [{ _id: p.id, qty: 1 }], itemsPrice: 10.5, totalPrice: 10.5 });
    await kit.db.order.update({ where: { id: paid.body._id }, data: { status: 'PAID' } });
    const refused = await (await kit.as(alice)).post(`/api/orders/${paid.body._id}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('A paid order cannot be cancelled');
    expect((await (await kit.as(null)).post(`/api/orders/${id}/cancel`)).status).toBe(401);
    expect((await (await kit.as(alice)).post('/api/orders/nope/cancel')).status).toBe(404);
  });

  it('an admin delete releases the stock; paid orders cannot be deleted', async () => {
    const p = await product({ countInStock: 2 });
    const res = await (await kit.as(bob)).post('/api/orders').send({ orderedItems: [{ _id: p.id, qty: 2 }], itemsPrice: 21, totalPrice: 21 });
    const asAdmin = await kit.as(admin);
    expect((await asAdmin.delete(`/api/orders/${res.body._id}/delete`)).status).toBe(200);
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: p.id } })).countInStock).toBe(2);
    expect((await asAdmin.delete(`/api/orders/${res.body._id}/delete`)).status).toBe(404);
    const paid = await (await kit.as(bob)).post('/api/orders').send({ orderedItems: [{ _id: p.id, qty: 1 }], itemsPrice: 10.5, totalPrice: 10.5 });
    await kit.db.order.update({ where: { id: paid.body._id }, data: { status: 'PAID' } });
    const refused = await asAdmin.delete(`/api/orders/${paid.body._id}/delete`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Paid orders cannot be deleted');
  });
});

describe('reading orders', () => {
  it('owners see their orders, admins see all with the user name, others get 404', async () => {
    const p = await product();
    const mine = await (await kit.as(bob)).post('/api/orders').send({ orderedItems: [{ _id: p.id, qty: 1 }], itemsPrice: 10.5, totalPrice: 10.5 });
    const list = await (await kit.as(bob)).get('/api/orders/mine');
    expect(list.body.map((o: { _id: string }) => o._id)).toContain(mine.body._id);
    expect(list.body.every((o: { user: string }) => o.user === bob.id)).toBe(true);
    expect((await (await kit.as(alice)).get(`/api/orders/${mine.body._id}`)).status).toBe(404);
    expect((await (await kit.as(admin)).get(`/api/orders/${mine.body._id}`)).status).toBe(200);
    const all = await (await kit.as(admin)).get('/api/orders');
    expect(all.body.find((o: { _id: string }) => o._id === mine.body._id).user).toEqual({ _id: bob.id, name: 'Bob' });
  });

  it('permission matrix: guests 401, users 403 on admin routes', async () => {
    const guest = await kit.as(null);
    for (const [m, path] of [['get', '/api/orders/mine'], ['post', '/api/orders'], ['get', '/api/orders'], ['get', `/api/orders/${alice.id}`], ['put', `/api/orders/${alice.id}/purchased`], ['delete', `/api/orders/${alice.id}/delete`]] as const) {
      expect((await guest[m](path).send({})).status, `${m} ${path}`).toBe(401);
    }
    const asAlice = await kit.as(alice);
    expect((await asAlice.get('/api/orders')).status).toBe(403);
    expect((await asAlice.delete(`/api/orders/${alice.id}/delete`)).status).toBe(403);
  });
});

describe('ETH price', () => {
  it('serves the feed price and refuses a stale one with 503', async () => {
    const ok = await (await kit.as(null)).get('/api/crypto/eth-price');
    expect(ok.status).toBe(200);
    expect(ok.body.price).toBe('3000.00000000');
    const stale = await createApiTestKit({ chain: true, env: { PRICE_CACHE_SECONDS: '0' } });
    try {
      await setEthUsdPrice(stale.env.anvil!.rpcUrl, '3100', { updatedAt: BigInt(Math.floor(Date.now() / 1000) - 7200) });
      const res = await (await stale.as(null)).get('/api/crypto/eth-price');
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/ETH price is unavailable/);
      const user = await stale.createUser();
      const p = await createProduct(stale.db, { name: 'P', image: '/images/gold.svg', description: '', price: new Prisma.Decimal('1.00'), countInStock: 1 });
      const order = await (await stale.as(user)).post('/api/orders').send({ orderedItems: [{ _id: p.id, qty: 1 }], itemsPrice: 1, totalPrice: 1 });
      expect(order.status).toBe(503);
      expect((await stale.db.product.findUniqueOrThrow({ where: { id: p.id } })).countInStock).toBe(1);
    } finally {
      await stale.close();
    }
  });
});
