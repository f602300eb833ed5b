import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProduct, Prisma } from '@shop/core';
import type { ProductJson } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';
import { deleteProduct } from './service.ts';

let kit: ApiTestKit;
let admin: TestUser;
let approver: TestUser;
let alice: TestUser;

beforeAll(async () => {
  // These tests change the products table directly, as another api instance would:
  // without the catalogue cache each read sees them at once (the cache has its own tests).
  kit = await createApiTestKit({ env: { CATALOGUE_CACHE_MS: '0' } });
  admin = await kit.createUser({ name: 'Admin', isAdmin: true });
  approver = await kit.createUser({ name: 'Second Admin', isAdmin: true });
  alice = await kit.createUser({ name: 'Alice' });
});
afterAll(async () => {
  await kit?.close();
});

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

async function makeProduct(over: Partial<Prisma.ProductCreateInput> = {}) {
  return createProduct(kit.db, {
      name: 'Gold Package',
      image: '/images/gold.svg',
      description: 'Pays every day',
      price: new Prisma.Decimal('49.90'),
      dailyCredit: new Prisma.Decimal('1.25'),
      countInStock: 7,
      rating: new Prisma.Decimal('4.50'),
      numReviews: 3,
      ...over,
    });
}

/** Everything about the products table that a request could change. */
const snapshot = async () =>
  JSON.stringify(await kit.db.product.findMany({ orderBy: { id: 'asc' } }));

const validUpdate = {
  name: 'Platinum',
  price: '120.5',
  image: '/uploads/abc123.png',
  // $105 over 60 days for $120.50: it pays less than it costs (one admin may sell it).
  dailyCredit: 1.75,
  description: 'The best package',
  countInStock: '12',
  loadedCountInStock: 7, // what the form showed (makeProduct's stock)
  durationDays: 60,
};

beforeEach(async () => {
  await kit.db.orderItem.deleteMany();
  await kit.db.order.deleteMany();
  await kit.db.product.deleteMany();
});

describe('public reads', () => {
  it('lists the packages oldest first, with money as 2-decimal numbers and ISO dates', async () => {
    const first = await makeProduct({ name: 'First', createdAt: new Date('2025-01-01T00:00:00Z') });
    const second = await makeProduct({ name: 'Second', price: new Prisma.Decimal('0.10'), dailyCredit: new Prisma.Decimal('1000000000.99'), createdAt: new Date('2025-02-01T00:00:00Z') });
    const res = await (await kit.as(null)).get('/api/products');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { _id: string }) => p._id)).toEqual([first.id, second.id]);
    expect(res.body[0]).toEqual({
      _id: first.id,
      name: 'First',
      image: '/images/gold.svg',
      description: 'Pays every day',
      price: 49.9,
      rating: 4.5,
      numReviews: 3,
      countInStock: 7,
      dailyCredit: 1.25,
      durationDays: 30,
      publishedAt: first.publishedAt!.toISOString(),
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: first.updatedAt.toISOString(),
    });
    expect(res.body[1]).toMatchObject({ price: 0.1, dailyCredit: 1000000000.99 });
    expect(res.text).toContain('"dailyCredit":1000000000.99');
  });

  it('orders packages created at the same instant by id, so the order is stable', async () => {
    const at = new Date('2025-03-01T00:00:00Z');
    const made = await Promise.all([1, 2, 3, 4].map((n) => makeProduct({ name: `P${n}`, createdAt: at })));
    const res = await (await kit.as(null)).get('/api/products');
    expect(res.body.map((p: { _id: string }) => p._id)).toEqual(made.map((p) => p.id).sort());
  });

  it('shows one package to anyone, and 404 for unknown, malformed or deleted ids', async () => {
    const product = await makeProduct();
    const hidden = await makeProduct({ name: 'Hidden', deletedAt: new Date() });
    const guest = await kit.as(null);
    const ok = await guest.get(`/api/products/${product.id.toUpperCase()}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ _id: product.id, name: 'Gold Package', price: 49.9 });
    for (const id of [MISSING_ID, 'not-an-id', hidden.id, '1%27%20OR%201=1']) {
      const res = await guest.get(`/api/products/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ message: 'Product not found' });
    }
    const list = await guest.get('/api/products');
    expect(list.body.map((p: { _id: string }) => p._id)).toEqual([product.id]);
  });
});

describe('create (admin)', () => {
  it('creates the sample package as a draft: the admin lists it, the storefront does not', async () => {
    const res = await (await kit.as(admin)).post('/api/products');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Sample name', price: 0, image: '/images/sampler.svg', description: 'Sample description',
      countInStock: 0, dailyCredit: 0, durationDays: 30, rating: 0, numReviews: 0, publishedAt: null,
    });
    const stored = await kit.db.product.findUniqueOrThrow({ where: { id: res.body._id } });
    expect(stored).toMatchObject({ name: 'Sample name', publishedAt: null });
    const guest = await kit.as(null);
    expect((await guest.get('/api/products')).body).toEqual([]);
    expect((await guest.get(`/api/products/${res.body._id}`)).status).toBe(404);
    const adminList = await (await kit.as(admin)).get('/api/admin/products');
    expect(adminList.status).toBe(200);
    expect(adminList.body.map((p: { _id: string; publishedAt: string | null }) => [p._id, p.publishedAt])).toEqual([[res.body._id, null]]);
    const adminRead = await (await kit.as(admin)).get(`/api/admin/products/${res.body._id}`);
    expect(adminRead.body).toMatchObject({ _id: res.body._id, publishedAt: null });
  });

  it('refuses guests (401) and plain users (403), creating nothing', async () => {
    const guest = await (await kit.as(null)).post('/api/products');
    expect(guest.status).toBe(401);
    expect(guest.body.message).toEqual(expect.any(String));
    const user = await (await kit.as(alice)).post('/api/products');
    expect(user.status).toBe(403);
    expect(user.body).toEqual({ message: 'Not authorized as an admin' });
    expect(await kit.db.product.count()).toBe(0);
  });
});

describe('update (admin)', () => {
  it('saves every field, accepting numbers or numeric strings, and keeps the id', async () => {
    const product = await makeProduct();
    const res = await (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...validUpdate, productId: product.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      _id: product.id, name: 'Platinum', price: 120.5, image: '/uploads/abc123.png', dailyCredit: 1.75,
      description: 'The best package', countInStock: 12, durationDays: 60, rating: 4.5, numReviews: 3,
    });
    const stored = await kit.db.product.findUniqueOrThrow({ where: { id: product.id } });
    expect(stored.price.toString()).toBe('120.5');
    expect(stored.dailyCredit.toFixed(2)).toBe('1.75');
    expect(stored.countInStock).toBe(12);
    expect(stored.durationDays).toBe(60);
  });

  it('never overwrites stock that orders took since the form was loaded: left as loaded it is not touched, changed it is a 409', async () => {
    const product = await makeProduct({ countInStock: 7 });
    const as = await kit.as(admin);
    // Someone orders 2 while the admin's form still shows 7.
    await kit.db.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE "Product" SET "countInStock" = 5 WHERE "id" = ${product.id}::uuid`;
      await tx.stockMovement.create({ data: { productId: product.id, kind: 'STOCKED', delta: -2, reference: 'test: sold elsewhere' } });
    });
    const renamed = await as.put(`/api/products/${product.id}`).send({ ...validUpdate, countInStock: 7, loadedCountInStock: 7 });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Platinum', countInStock: 5 });
    const stale = await as.put(`/api/products/${product.id}`).send({ ...validUpdate, countInStock: 20, loadedCountInStock: 7 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('The stock changed since this form was loaded (it is now 5). Reload the package and enter the change again.');
    const fresh = await as.put(`/api/products/${product.id}`).send({ ...validUpdate, countInStock: 20, loadedCountInStock: 5 });
    expect(fresh.body.countInStock).toBe(20);
    const log = await kit.db.stockMovement.findMany({ where: { productId: product.id }, orderBy: { createdAt: 'asc' } });
    expect(log.map((m) => [m.kind, m.delta])).toEqual([['STOCKED', 7], ['STOCKED', -2], ['STOCKED', 15]]);
  });

  it('leaves durationDays alone when it is not sent, and accepts an http(s) image URL', async () => {
    const product = await makeProduct({ durationDays: 14 });
    const { durationDays: _omit, ...body } = validUpdate;
    const res = await (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...body, image: 'https://cdn.example.com/p.png' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ durationDays: 14, image: 'https://cdn.example.com/p.png' });
  });

  it('refuses bad input with a 400 naming the field, changing nothing', async () => {
    const product = await makeProduct();
    const before = await snapshot();
    const { name: _n, ...noName } = validUpdate;
    const { price: _p, ...noPrice } = validUpdate;
    const cases: [string, unknown, RegExp][] = [
      ['missing name', noName, /name/i],
      ['missing price', noPrice, /price/i],
      ['empty body', {}, /name|price|image/i],
      ['name of the wrong type', { ...validUpdate, name: 42 }, /name/i],
      ['blank name', { ...validUpdate, name: '   ' }, /name/i],
      ['huge name', { ...validUpdate, name: 'x'.repeat(201) }, /name/i],
      ['huge description', { ...validUpdate, description: 'd'.repeat(5001) }, /description/i],
      ['negative price', { ...validUpdate, price: -1 }, /price/i],
      ['price with 3 decimals', { ...validUpdate, price: '1.999' }, /price/i],
      ['price number with 3 decimals', { ...validUpdate, price: 1.005 }, /price/i],
      ['price not a number', { ...validUpdate, price: 'abc' }, /price/i],
      ['price as an object', { ...validUpdate, price: { $gt: 0 } }, /price/i],
      ['price too large', { ...validUpdate, price: '1000000000000' }, /price/i],
      ['negative daily credit', { ...validUpdate, dailyCredit: '-0.01' }, /^Daily credit/],
      ['negative stock', { ...validUpdate, countInStock: -1 }, /^Count in stock/],
      ['fractional stock', { ...validUpdate, countInStock: 1.5 }, /^Count in stock/],
      ['stock as a boolean', { ...validUpdate, countInStock: true }, /^Count in stock/],
      // In the words of the admin's form, whose 'Term (days)' field checks the same bounds.
      ['zero duration', { ...validUpdate, durationDays: 0 }, /^Term \(days\) must be at least 1$/],
      ['duration over ten years', { ...validUpdate, durationDays: '3651' }, /^Term \(days\) must be at most 3650$/],
      ['fractional duration', { ...validUpdate, durationDays: '2.5' }, /^Term \(days\) must be a whole number$/],
      ['image with a path outside uploads', { ...validUpdate, image: '/etc/passwd' }, /image/i],
      ['javascript image url', { ...validUpdate, image: 'javascript:alert(1)' }, /image/i],
      ['huge productId', { ...validUpdate, productId: 'p'.repeat(1000) }, /^Product id/],
    ];
    const as = await kit.as(admin);
    for (const [label, body, field] of cases) {
      const res = await as.put(`/api/products/${product.id}`).send(body as object);
      expect(res.status, label).toBe(400);
      expect(res.body.message, label).toMatch(field);
    }
    for (const raw of ['[1,2]', '"text"', 'null']) {
      const res = await as.put(`/api/products/${product.id}`).set('content-type', 'application/json').send(raw);
      expect(res.status, raw).toBe(400);
      expect(res.body.message, raw).toEqual(expect.any(String));
    }
    const tooBig = await as.put(`/api/products/${product.id}`).send({ ...validUpdate, description: 'd'.repeat(200_000) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ message: 'Request body too large' });
    expect(await snapshot()).toBe(before);
  });

  it('answers 404 for unknown, malformed or deleted ids, changing nothing', async () => {
    const hidden = await makeProduct({ deletedAt: new Date() });
    const before = await snapshot();
    const as = await kit.as(admin);
    for (const id of [MISSING_ID, 'nope', hidden.id]) {
      const res = await as.put(`/api/products/${id}`).send(validUpdate);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ message: 'Product not found' });
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses guests (401) and plain users (403), changing nothing', async () => {
    const product = await makeProduct();
    const before = await snapshot();
    expect((await (await kit.as(null)).put(`/api/products/${product.id}`).send(validUpdate)).status).toBe(401);
    expect((await (await kit.as(alice)).put(`/api/products/${product.id}`).send(validUpdate)).status).toBe(403);
    expect(await snapshot()).toBe(before);
  });
});

describe('delete (admin)', () => {
  async function orderFor(productId: string) {
    const product = await kit.db.product.findUniqueOrThrow({ where: { id: productId } });
    return kit.db.order.create({
      data: {
        userId: alice.id,
        itemsPrice: product.price,
        totalPrice: product.price,
        items: {
          create: {
            productId,
            name: product.name,
            image: product.image,
            price: product.price,
            qty: 1,
            dailyCredit: product.dailyCredit,
            durationDays: product.durationDays,
          },
        },
      },
      include: { items: true },
    });
  }

  it('removes a package that no order refers to', async () => {
    const product = await makeProduct();
    const res = await (await kit.as(admin)).delete(`/api/products/${product.id}/delete`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Product deleted' });
    expect(await kit.db.product.findUnique({ where: { id: product.id } })).toBeNull();
  });

  it('hides a package that an order refers to, keeping the order item readable', async () => {
    const product = await makeProduct();
    const order = await orderFor(product.id);
    const res = await (await kit.as(admin)).delete(`/api/products/${product.id}/delete`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Product deleted' });

    const stored = await kit.db.product.findUniqueOrThrow({ where: { id: product.id } });
    expect(stored.deletedAt).toBeInstanceOf(Date);
    const item = await kit.db.orderItem.findFirstOrThrow({ where: { orderId: order.id }, include: { product: true } });
    expect(item).toMatchObject({ productId: product.id, name: 'Gold Package', qty: 1 });
    expect(item.price.toFixed(2)).toBe('49.90');
    expect(item.product.id).toBe(product.id);

    const guest = await kit.as(null);
    expect((await guest.get(`/api/products/${product.id}`)).status).toBe(404);
    expect((await guest.get('/api/products')).body).toEqual([]);
    // Deleting again: it is gone as far as the API is concerned.
    const again = await (await kit.as(admin)).delete(`/api/products/${product.id}/delete`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Product not found' });
  });

  it('falls back to hiding when an order appears between the check and the delete', async () => {
    const product = await makeProduct();
    await orderFor(product.id);
    // The check sees no order (as if the order were placed just after it); the foreign key still refuses.
    const db = new Proxy(kit.db, {
      get: (target, prop, receiver) =>
        prop === 'orderItem' ? { count: async () => 0 } : Reflect.get(target, prop, receiver),
    });
    expect(await deleteProduct(db, product.id)).toEqual({ mode: 'hidden' });
    const stored = await kit.db.product.findUniqueOrThrow({ where: { id: product.id } });
    expect(stored.deletedAt).toBeInstanceOf(Date);
  });

  it('answers 404 for unknown or malformed ids, changing nothing', async () => {
    await makeProduct();
    const before = await snapshot();
    const as = await kit.as(admin);
    for (const id of [MISSING_ID, 'abc']) {
      const res = await as.delete(`/api/products/${id}/delete`);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ message: 'Product not found' });
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses guests (401) and plain users (403), deleting nothing', async () => {
    const product = await makeProduct();
    expect((await (await kit.as(null)).delete(`/api/products/${product.id}/delete`)).status).toBe(401);
    expect((await (await kit.as(alice)).delete(`/api/products/${product.id}/delete`)).status).toBe(403);
    const stored = await kit.db.product.findUniqueOrThrow({ where: { id: product.id } });
    expect(stored.deletedAt).toBeNull();
  });
});

describe('drafts and publishing (admin)', () => {
  it('publishing shows a draft on the storefront, unpublishing hides it again; both are audited', async () => {
    const draft = await makeProduct({ name: 'Draft Package', publishedAt: null });
    const guest = await kit.as(null);
    expect((await guest.get('/api/products')).body).toEqual([]);
    expect((await guest.get(`/api/products/${draft.id}`)).body).toEqual({ message: 'Product not found' });
    // Edited while a draft, it stays one.
    const edit = await (await kit.as(admin)).put(`/api/products/${draft.id}`).send({ ...validUpdate, name: 'Ruby Package' });
    expect(edit.status).toBe(200);
    expect(edit.body.publishedAt).toBeNull();

    const published = await (await kit.as(admin)).post(`/api/admin/products/${draft.id}/publish`).send({ published: true });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ _id: draft.id, name: 'Ruby Package', publishedAt: expect.any(String) });
    expect((await guest.get('/api/products')).body.map((p: { _id: string }) => p._id)).toEqual([draft.id]);
    expect((await guest.get(`/api/products/${draft.id}`)).body).toMatchObject({ name: 'Ruby Package' });
    // Publishing again keeps the date it went on sale.
    const again = await (await kit.as(admin)).post(`/api/admin/products/${draft.id}/publish`).send({ published: true });
    expect(again.body.publishedAt).toBe(published.body.publishedAt);

    const unpublished = await (await kit.as(admin)).post(`/api/admin/products/${draft.id}/publish`).send({ published: false });
    expect(unpublished.body.publishedAt).toBeNull();
    expect((await guest.get('/api/products')).body).toEqual([]);
    const audit = await kit.db.auditEntry.findMany({ where: { subjectId: draft.id, action: { in: ['product.publish', 'product.unpublish'] } }, orderBy: { seq: 'asc' } });
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([
      ['product.publish', admin.id],
      ['product.publish', admin.id],
      ['product.unpublish', admin.id],
    ]);
  });

  it('refuses bad input (400), unknown or deleted packages (404), guests (401) and plain users (403)', async () => {
    const draft = await makeProduct({ publishedAt: null });
    const gone = await makeProduct({ deletedAt: new Date() });
    const before = await snapshot();
    const as = await kit.as(admin);
    const bad = await as.post(`/api/admin/products/${draft.id}/publish`).send({ published: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Published must be true or false/);
    for (const id of [MISSING_ID, gone.id]) {
      const res = await as.post(`/api/admin/products/${id}/publish`).send({ published: true });
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ message: 'Product not found' });
    }
    expect((await as.get(`/api/admin/products/${gone.id}`)).status).toBe(404);
    expect((await (await kit.as(null)).post(`/api/admin/products/${draft.id}/publish`).send({ published: true })).status).toBe(401);
    expect((await (await kit.as(alice)).post(`/api/admin/products/${draft.id}/publish`).send({ published: true })).status).toBe(403);
    expect((await (await kit.as(alice)).get('/api/admin/products')).status).toBe(403);
    expect((await (await kit.as(alice)).get(`/api/admin/products/${draft.id}`)).status).toBe(403);
    expect(await snapshot()).toBe(before);
  });
});

describe('a package that pays more than it costs (one admin cannot mint money)', () => {
  const approve = async (who: TestUser, id: string) => (await kit.as(who)).post(`/api/admin/approvals/${id}/approve`);
  const stored = (id: string) => kit.db.product.findUniqueOrThrow({ where: { id } });
  /** $0.01 for $499 a day over 30 days: $14,970 of credit for a cent. */
  const minting = { price: new Prisma.Decimal('0.01'), dailyCredit: new Prisma.Decimal('499.00'), durationDays: 30 };

  it('is published only once a second admin approves it', async () => {
    const draft = await makeProduct({ name: 'Penny Package', ...minting, publishedAt: null });
    const fair = await makeProduct({ name: 'Fair Package', publishedAt: null });
    // The admin list says which drafts will wait (the shop's PACKAGE_CREDIT_MULTIPLE decides), so the list can ask for a reason first.
    const listed = (await (await kit.as(admin)).get('/api/admin/products?limit=100')).body as ProductJson[];
    expect(listed.find((p) => p._id === draft.id)?.publishWaits).toBe(true);
    expect(listed.find((p) => p._id === fair.id)?.publishWaits).toBe(false);
    const asked = await (await kit.as(admin)).post(`/api/admin/products/${draft.id}/publish`).send({ published: true });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ _id: draft.id, publishedAt: null, pendingApproval: { _id: expect.any(String) } });
    expect((await (await kit.as(null)).get('/api/products')).body).toEqual([]);
    const id = asked.body.pendingApproval._id as string;
    const list = (await (await kit.as(approver)).get('/api/admin/approvals?status=PENDING')).body as { _id: string }[];
    expect(list.find((a) => a._id === id)).toMatchObject({
      kind: 'PACKAGE', status: 'PENDING', subject: { type: 'product', id: draft.id }, amountUsd: 14970, requestedBy: { _id: admin.id },
      package: { name: 'Penny Package', publish: true, price: '0.01', dailyCredit: '499.00', durationDays: 30, stockAdded: null },
    });
    // Asking again gives the same request; the admin who asked cannot approve it.
    expect((await (await kit.as(admin)).post(`/api/admin/products/${draft.id}/publish`).send({ published: true })).body.pendingApproval._id).toBe(id);
    expect((await approve(admin, id)).status).toBe(403);
    expect((await stored(draft.id)).publishedAt).toBeNull();
    const approved = await approve(approver, id);
    expect(approved.status).toBe(200);
    expect((await stored(draft.id)).publishedAt).not.toBeNull();
    expect((await (await kit.as(null)).get('/api/products')).body.map((p: { _id: string }) => p._id)).toEqual([draft.id]);
    const audit = await kit.db.auditEntry.findMany({ where: { subjectId: draft.id, action: { startsWith: 'approval.' } }, orderBy: { seq: 'asc' } });
    expect(audit.map((e) => [e.action, e.actorId])).toEqual([['approval.requested', admin.id], ['approval.approved', approver.id]]);
  });

  it("a published package's change that makes it pay more than it costs waits; its name and text are saved at once", async () => {
    const product = await makeProduct({ countInStock: 7 });
    const res = await (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...validUpdate, name: 'Renamed', price: '0.01', dailyCredit: '499', durationDays: 30 });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: 'Renamed', price: 49.9, dailyCredit: 1.25, countInStock: 7, durationDays: 30, pendingApproval: { _id: expect.any(String) } });
    expect(await stored(product.id)).toMatchObject({ name: 'Renamed', countInStock: 7 });
    expect((await stored(product.id)).price.toFixed(2)).toBe('49.90');
    expect((await approve(approver, res.body.pendingApproval._id)).status).toBe(200);
    const after = await stored(product.id);
    expect([after.price.toFixed(2), after.dailyCredit.toFixed(2), after.durationDays, after.countInStock]).toEqual(['0.01', '499.00', 30, 12]);
    const moves = await kit.db.stockMovement.findMany({ where: { productId: product.id }, orderBy: { createdAt: 'asc' } });
    expect(moves.map((m) => m.delta)).toEqual([7, 5]);
  });

  it('on a package that pays more than it costs, more stock waits; less stock or a higher price goes through', async () => {
    const product = await makeProduct({ ...minting, countInStock: 7 });
    const body = { ...validUpdate, price: '0.01', dailyCredit: '499', durationDays: 30 };
    const more = await (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...body, countInStock: 9, loadedCountInStock: 7 });
    expect(more.status).toBe(202);
    expect((await stored(product.id)).countInStock).toBe(7);
    const less = await (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...body, countInStock: 5, loadedCountInStock: 7 });
    expect(less.status).toBe(200);
    expect(less.body.countInStock).toBe(5);
    const dearer = await (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...body, price: '1.00', countInStock: 5, loadedCountInStock: 5 });
    expect(dearer.status).toBe(200);
    expect(dearer.body.price).toBe(1);
    // Approved later: the 2 more it asked for are added to the stock as it is then.
    expect((await approve(approver, more.body.pendingApproval._id)).status).toBe(200);
    expect((await stored(product.id)).countInStock).toBe(7);
  });

  it('an approval of terms the package no longer has is refused: rejected and asked again', async () => {
    const draft = await makeProduct({ ...minting, publishedAt: null });
    const asked = await (await kit.as(admin)).post(`/api/admin/products/${draft.id}/publish`).send({ published: true });
    // Edited while a draft after the request: more credit than the second admin would see.
    const edited = await (await kit.as(admin)).put(`/api/products/${draft.id}`).send({ ...validUpdate, price: '0.01', dailyCredit: '999', durationDays: 30, countInStock: 7 });
    expect(edited.status).toBe(200);
    const late = await approve(approver, asked.body.pendingApproval._id);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('The package changed since this was asked: reject it, and publish or edit it again.');
    expect((await stored(draft.id)).publishedAt).toBeNull();
  });

  it("an approved change is refused when the package's other terms or stock became more generous since it was asked", async () => {
    const product = await makeProduct({ price: new Prisma.Decimal('100.00'), dailyCredit: new Prisma.Decimal('0.00'), durationDays: 30, countInStock: 1 });
    const put = async (body: object) => (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...validUpdate, ...body });
    // $3.40 a day over 30 days: $102 for $100, held; the approver is shown those terms.
    const asked = await put({ price: '100', dailyCredit: '3.40', durationDays: 30, countInStock: 1, loadedCountInStock: 1 });
    expect(asked.status).toBe(202);
    // Meanwhile, while it pays nothing a day, a cent, ten years and a million on sale pass alone.
    expect((await put({ price: '0.01', dailyCredit: '0', durationDays: 3650, countInStock: 1_000_000, loadedCountInStock: 1 })).status).toBe(200);
    const late = await approve(approver, asked.body.pendingApproval._id);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('The package changed since this was asked: reject it, and publish or edit it again.');
    const after = await stored(product.id);
    expect([after.price.toFixed(2), after.dailyCredit.toFixed(2)]).toEqual(['0.01', '0.00']);
  });

  it('two held changes asked on the same terms do not stack: once one is applied, the other is refused', async () => {
    const product = await makeProduct({ price: new Prisma.Decimal('100.00'), dailyCredit: new Prisma.Decimal('3.00'), durationDays: 30, countInStock: 1 });
    const put = async (body: object) => (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...validUpdate, durationDays: 30, countInStock: 1, loadedCountInStock: 1, ...body });
    const cheaper = await put({ price: '80', dailyCredit: '3.00' });
    const richer = await put({ price: '100', dailyCredit: '3.60' });
    expect([cheaper.status, richer.status]).toEqual([202, 202]);
    expect((await approve(approver, cheaper.body.pendingApproval._id)).status).toBe(200);
    expect((await approve(approver, richer.body.pendingApproval._id)).status).toBe(409);
    const after = await stored(product.id);
    expect([after.price.toFixed(2), after.dailyCredit.toFixed(2)]).toEqual(['80.00', '3.00']);
  });

  it('an approved change whose stock grew since it was asked is refused; stock that orders took meanwhile is fine', async () => {
    const product = await makeProduct({ ...minting, countInStock: 7 });
    const body = { ...validUpdate, price: '0.01', dailyCredit: '499', durationDays: 30 };
    const more = await (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...body, countInStock: 9, loadedCountInStock: 7 });
    expect(more.status).toBe(202);
    // Less stock goes through alone; then back up past what the approver was shown.
    expect((await (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...body, countInStock: 5, loadedCountInStock: 7 })).status).toBe(200);
    const other = await (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...body, countInStock: 8, loadedCountInStock: 5 });
    expect(other.status).toBe(202);
    expect((await approve(approver, other.body.pendingApproval._id)).status).toBe(200);
    expect((await stored(product.id)).countInStock).toBe(8);
    expect((await approve(approver, more.body.pendingApproval._id)).status).toBe(409);
    expect((await stored(product.id)).countInStock).toBe(8);
  });

  it('the approver is shown the stock once approved and what that stock pays in all, not only one unit', async () => {
    const product = await makeProduct({ ...minting, countInStock: 7 });
    const more = await (await kit.as(admin)).put(`/api/products/${product.id}`).send({ ...validUpdate, price: '0.01', dailyCredit: '499', durationDays: 30, countInStock: 10, loadedCountInStock: 7 });
    expect(more.status).toBe(202);
    const list = (await (await kit.as(approver)).get('/api/admin/approvals?status=PENDING')).body as { _id: string }[];
    expect(list.find((a) => a._id === more.body.pendingApproval._id)).toMatchObject({
      amountUsd: 14970,
      package: { stockAdded: 3, countInStock: 7, stockOnceApproved: 10, stockPaysUsd: '149700.00' },
    });
  });

  it('PACKAGE_CREDIT_MULTIPLE sets how much more than its price a package may pay over its term before a second admin is asked', async () => {
    const lenient = await createApiTestKit({ env: { PACKAGE_CREDIT_MULTIPLE: '6' } });
    try {
      const boss = await lenient.createUser({ isAdmin: true });
      // $5,040 over 180 days for $999 (about 5 times its price): within 6 times.
      const diamond = await createProduct(lenient.db, { name: 'Diamond', image: '/images/diamond.svg', description: 'd', price: new Prisma.Decimal('999.00'), dailyCredit: new Prisma.Decimal('28.00'), durationDays: 180, publishedAt: null });
      expect((await (await lenient.as(boss)).post(`/api/admin/products/${diamond.id}/publish`).send({ published: true })).status).toBe(200);
      const penny = await createProduct(lenient.db, { name: 'Penny', image: '/images/p.svg', description: 'd', ...minting, publishedAt: null });
      expect((await (await lenient.as(boss)).post(`/api/admin/products/${penny.id}/publish`).send({ published: true })).status).toBe(202);
    } finally {
      await lenient.close();
    }
  });
});
