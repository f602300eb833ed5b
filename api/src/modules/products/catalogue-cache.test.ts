import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, Prisma } from '@shop/core';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';
import { CatalogueCache } from './catalogue-cache.ts';

describe('CatalogueCache', () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };
  const deferred = <T>() => {
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };

  it('reuses a read for the ttl, then reads again', async () => {
    const c = clock();
    const cache = new CatalogueCache(1000, c.now);
    let reads = 0;
    const load = async () => ({ n: ++reads });
    expect((await cache.get('list', load))?.body.toString()).toBe('{"n":1}');
    c.advance(999);
    expect((await cache.get('list', load))?.body.toString()).toBe('{"n":1}');
    c.advance(1);
    expect((await cache.get('list', load))?.body.toString()).toBe('{"n":2}');
    expect(reads).toBe(2);
  });

  it('shares one read between concurrent misses', async () => {
    const cache = new CatalogueCache(1000, clock().now);
    const gate = deferred<unknown>();
    let reads = 0;
    const load = () => (reads++, gate.promise);
    const all = Promise.all(Array.from({ length: 50 }, () => cache.get('list', load)));
    gate.resolve([{ name: 'Gold' }]);
    const bodies = (await all).map((r) => r?.body.toString());
    expect(reads).toBe(1);
    expect(new Set(bodies)).toEqual(new Set(['[{"name":"Gold"}]']));
  });

  it('does not remember a failed read', async () => {
    const cache = new CatalogueCache(1000, clock().now);
    await expect(cache.get('list', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect((await cache.get('list', async () => ['back']))?.body.toString()).toBe('["back"]');
  });

  it('after invalidate, a read that started before it is not served to later requests', async () => {
    const cache = new CatalogueCache(60_000, clock().now);
    const before = deferred<unknown>();
    const early = cache.get('list', () => before.promise);
    cache.invalidate();
    const later = cache.get('list', async () => ({ price: 2 }));
    before.resolve({ price: 1 });
    expect((await early)?.body.toString()).toBe('{"price":1}');
    expect((await later)?.body.toString()).toBe('{"price":2}');
    expect((await cache.get('list', async () => ({ price: 3 })))?.body.toString()).toBe('{"price":2}');
  });

  it('peek answers a settled fresh read at once, and nothing for a read in flight or expired', async () => {
    const c = clock();
    const cache = new CatalogueCache(1000, c.now);
    const gate = deferred<unknown>();
    const pending = cache.get('list', () => gate.promise);
    expect(cache.peek('list')).toBeUndefined();
    gate.resolve(['a']);
    await pending;
    expect(cache.peek('list')?.body.toString()).toBe('["a"]');
    await cache.get('gone', async () => null);
    expect(cache.peek('gone')).toBeNull();
    c.advance(1000);
    expect(cache.peek('list')).toBeUndefined();
  });

  it('an order drops only the entries showing its packages, and reads still in flight', async () => {
    const cache = new CatalogueCache(60_000, clock().now);
    const reads: string[] = [];
    const page = (key: string, ids: string[]) => cache.getLoaded(key, async () => (reads.push(key), { data: ids, productIds: ids, link: '</next>; rel="next"' }));
    await page('list:1', ['a', 'b']);
    await page('list:2', ['c']);
    await cache.get('a', async () => (reads.push('a'), { id: 'a' }));
    await cache.get('c', async () => (reads.push('c'), { id: 'c' }));
    const gate = deferred<unknown>();
    void cache.get('d', () => gate.promise);
    expect((await page('list:1', []))?.link).toBe('</next>; rel="next"');
    expect(reads).toEqual(['list:1', 'list:2', 'a', 'c']);

    cache.invalidateProducts(['a']);
    expect(cache.peek('list:1')).toBeUndefined();
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('d')).toBeUndefined();
    // The page and the package the order did not touch are still served from memory.
    expect(cache.peek('list:2')?.body.toString()).toBe('["c"]');
    expect(cache.peek('c')?.body.toString()).toBe('{"id":"c"}');
    gate.resolve({ id: 'd' });
  });

  it('passes "not found" through, and with a ttl of 0 reads every time', async () => {
    const cache = new CatalogueCache(0, clock().now);
    let reads = 0;
    expect(await cache.get('x', async () => (reads++, null))).toBeNull();
    expect(await cache.get('x', async () => (reads++, null))).toBeNull();
    expect(reads).toBe(2);
  });
});

describe('the catalogue cache behind the api', () => {
  let kit: ApiTestKit;
  let admin: TestUser;
  let alice: TestUser;

  beforeAll(async () => {
    // A long ttl, so only invalidation can make a change visible within a test.
    kit = await createApiTestKit({ chain: true, env: { CATALOGUE_CACHE_MS: '60000' } });
    admin = await kit.createUser({ isAdmin: true });
    alice = await kit.createUser({ name: 'Alice' });
  });
  afterAll(async () => {
    await kit?.close();
  });

  const makeProduct = (countInStock: number) =>
    createProduct(kit.db, { name: 'Gold', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('10.00'), countInStock, dailyCredit: new Prisma.Decimal('1') });

  it('serves a change made outside this process only after the ttl, but an admin edit at once', async () => {
    const p = await makeProduct(5);
    const guest = await kit.as(null);
    expect((await guest.get(`/api/products/${p.id}`)).body.price).toBe(10);
    expect((await guest.get('/api/products')).body.find((x: { _id: string }) => x._id === p.id).price).toBe(10);

    // Another instance (or the worker) changes the row: this process still shows its read.
    await kit.db.product.update({ where: { id: p.id }, data: { name: 'Changed elsewhere' } });
    expect((await guest.get(`/api/products/${p.id}`)).body.name).toBe('Gold');

    const edit = await (await kit.as(admin)).put(`/api/products/${p.id}`).send({
      name: 'Platinum', price: '12.5', image: '/images/gold.svg', dailyCredit: 1, description: 'd', countInStock: 5, loadedCountInStock: 5,
    });
    expect(edit.status).toBe(200);
    expect((await guest.get(`/api/products/${p.id}`)).body).toMatchObject({ name: 'Platinum', price: 12.5 });
    expect((await guest.get('/api/products')).body.find((x: { _id: string }) => x._id === p.id)).toMatchObject({ name: 'Platinum', price: 12.5 });
  });

  it('shows stock reserved by an order, and released by its deletion, at once', async () => {
    const p = await makeProduct(5);
    const guest = await kit.as(null);
    expect((await guest.get(`/api/products/${p.id}`)).body.countInStock).toBe(5);

    const order = await (await kit.as(alice)).post('/api/orders').send({ orderedItems: [{ _id: p.id, qty: 2 }], itemsPrice: 20, totalPrice: 20 });
    expect(order.status).toBe(201);
    expect((await guest.get(`/api/products/${p.id}`)).body.countInStock).toBe(3);

    expect((await (await kit.as(admin)).delete(`/api/orders/${order.body._id}/delete`)).status).toBe(200);
    expect((await guest.get(`/api/products/${p.id}`)).body.countInStock).toBe(5);
  });

  it('answers 304 to a matching If-None-Match, and a new ETag after a change', async () => {
    const p = await makeProduct(1);
    const guest = await kit.as(null);
    const first = await guest.get(`/api/products/${p.id}`);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await guest.get(`/api/products/${p.id}`).set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    await (await kit.as(admin)).put(`/api/products/${p.id}`).send({ name: 'Silver', price: 10, image: '/images/gold.svg', dailyCredit: 1, description: 'd', countInStock: 1, loadedCountInStock: 1 });
    const changed = await guest.get(`/api/products/${p.id}`).set('If-None-Match', etag);
    expect(changed.status).toBe(200);
    expect(changed.body.name).toBe('Silver');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('still answers 404 for unknown and malformed ids', async () => {
    const guest = await kit.as(null);
    const unknown = await guest.get('/api/products/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Product not found');
    const malformed = await guest.get('/api/products/not-an-id');
    expect(malformed.status).toBe(404);
  });
});
