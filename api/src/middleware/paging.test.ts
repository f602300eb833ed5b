import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../testing/api-test-kit.ts';
import { decodeCursor, encodeCursor, MAX_PAGE_SIZE } from './paging.ts';

/**
 * Every list the api serves is paged: tested on more rows than one page, as a two-year
 * shop would have them (older rows written by SQL with old creation times).
 */
let kit: ApiTestKit;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let agent: Awaited<ReturnType<ApiTestKit['as']>>;

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

/** Follows the Link headers from `path` to the last page; every page's rows, in order. */
async function walk(path: string, as = agent): Promise<{ pages: unknown[][]; rows: { _id: string }[] }> {
  const pages: unknown[][] = [];
  let next: string | null = path;
  while (next) {
    const res = await as.get(next);
    expect(res.status, `${next}: ${JSON.stringify(res.body)}`).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    pages.push(res.body as unknown[]);
    const link = res.headers.link as string | undefined;
    next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
    expect(pages.length).toBeLessThan(100);
  }
  return { pages, rows: pages.flat() as { _id: string }[] };
}

/** Orders straight into the table (no items, no stock held): the list reads them like any. */
async function insertOrders(userId: string, n: number, opts: { status?: string; startDaysAgo?: number } = {}): Promise<string[]> {
  const rows = await kit.db.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO "Order" ("id", "userId", "status", "itemsPrice", "totalPrice", "stockReserved", "createdAt", "updatedAt")
     SELECT gen_random_uuid(), $1::uuid, $2::"OrderStatus", 10, 10, false, now() - make_interval(days => $3::int) - g * interval '1 minute', now()
     FROM generate_series(1, $4::int) g RETURNING "id"`,
    userId,
    opts.status ?? 'EXPIRED',
    opts.startDaysAgo ?? 1,
    n,
  );
  return rows.map((r) => r.id);
}

/** A cashout request with the ledger entries a real one has (the books stay balanced). */
async function insertCashout(userId: string, status: 'REQUESTED' | 'NOTIFIED' | 'REJECTED', createdAt: Date): Promise<string> {
  const [row] = await kit.db.$queryRaw<{ id: string }[]>`
    INSERT INTO "CashoutRequest" ("id", "userId", "wallet", "amountUsd", "status", "createdAt", "updatedAt")
    VALUES (gen_random_uuid(), ${userId}::uuid, ${'0x' + '1'.repeat(40)}, 25, ${status}::"CashoutStatus", ${createdAt}, now()) RETURNING "id"`;
  const id = row!.id;
  // Credited then cashed out (the balance is 0); a rejected one came back and was spent again.
  const entries: [string, number, string | null][] = [['ADMIN_ADJUSTMENT', 25, null], ['CASHOUT', -25, `cashout:${id}`]];
  if (status === 'REJECTED') entries.push(['CASHOUT', 25, `cashout:${id}:rejected`], ['ADMIN_ADJUSTMENT', -25, null]);
  for (const [kind, amount, reference] of entries) {
    await kit.db.$executeRaw`
      INSERT INTO "LedgerEntry" ("id", "userId", "account", "amount", "kind", "reference", "idempotencyKey", "cashoutId")
      VALUES (gen_random_uuid(), ${userId}::uuid, 'ACTIVE', ${amount}, ${kind}::"LedgerKind", ${reference}, gen_random_uuid()::text, ${reference ? id : null}::uuid)`;
  }
  return id;
}

beforeAll(async () => {
  kit = await createApiTestKit();
  admin = await kit.createUser({ name: 'Admin', isAdmin: true });
  alice = await kit.createUser({ name: 'Alice Liddell', email: 'alice.liddell@example.com' });
  bob = await kit.createUser({ name: 'Bob Stone', email: 'bob@example.org' });
  agent = await kit.as(admin);
});
afterAll(async () => {
  await kit?.close();
});

describe('paging', () => {
  it('walks every order in pages of the default size, newest first, with no row twice or missing', async () => {
    const ids = [...(await insertOrders(alice.id, 70)), ...(await insertOrders(bob.id, 60, { startDaysAgo: 400 }))];
    const { pages, rows } = await walk('/api/orders');
    expect(pages.map((p) => p.length)).toEqual([50, 50, 30]);
    expect(new Set(rows.map((r) => r._id))).toEqual(new Set(ids));
    expect(rows.length).toBe(ids.length);
    const times = (rows as unknown as { createdAt: string }[]).map((r) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // A chosen page size is kept in the next link.
    const small = await walk('/api/orders?limit=40');
    expect(small.pages.map((p) => p.length)).toEqual([40, 40, 40, 10]);
  });

  it('refuses a bad limit or a cursor it did not give with a 400 that says so', async () => {
    for (const bad of ['0', '201', 'ten', '-1', '1.5']) {
      const res = await agent.get(`/api/orders?limit=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
    }
    for (const bad of ['garbage', Buffer.from('t123.not-an-id').toString('base64url'), '%00', 'a'.repeat(300)]) {
      const res = await agent.get(`/api/orders?cursor=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('cursor is not one this list gave: start again from the first page');
    }
    // Cursors forged with another list's kind of key, or out of the column's range.
    const forged = (text: string) => Buffer.from(text).toString('base64url');
    const id = '3f2b8c1e-0000-4000-8000-000000000001';
    for (const [path, cursor] of [
      ['/api/products', forged(`n5.${id}`)],
      ['/api/orders', forged(`n99999999999999999999.${id}`)],
      ['/api/orders', forged(`t-8640000000000000.${id}`)],
      ['/api/orders', forged(`t99999999999999999.${id}`)],
      ['/api/orders/mine', forged(`n5.${id}`)],
    ] as const) {
      const res = await agent.get(`${path}?cursor=${cursor}`);
      expect(res.status, `${path} ${cursor}`).toBe(400);
    }
    expect((await agent.get('/api/orders?from=0000-01-01')).status).toBe(400);
    expect((await agent.get('/api/orders?status=SHIPPED')).status).toBe(400);
    expect((await agent.get('/api/orders?from=yesterday')).body.message).toBe('from must be a date (YYYY-MM-DD)');
    expect((await agent.get('/api/orders?limit=1&limit=2')).body.message).toBe('limit must be given once');
    const cursor = { key: new Date('2026-01-02T03:04:05.678Z'), id: '3f2b8c1e-0000-4000-8000-000000000001' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it("finds orders by part of a buyer's e-mail or name, order id, transaction hash, status and date", async () => {
    const [carolOrder] = await insertOrders((await kit.createUser({ name: 'Carol Zebra', email: 'czebra@shop.test' })).id, 1, { status: 'PENDING_PAYMENT' });
    const byEmail = await agent.get('/api/orders?q=ZEBRA@shop');
    expect(byEmail.body.map((o: { _id: string }) => o._id)).toEqual([carolOrder]);
    expect((await agent.get('/api/orders?q=carol%20z')).body.map((o: { _id: string }) => o._id)).toEqual([carolOrder]);
    expect((await agent.get(`/api/orders?q=${carolOrder!.toUpperCase()}`)).body.map((o: { _id: string }) => o._id)).toEqual([carolOrder]);

    const txHash = `0x${'ab'.repeat(32)}`;
    await kit.db.payment.create({ data: { txHash, orderId: carolOrder!, source: 'REPORTED', status: 'REJECTED' } });
    expect((await agent.get(`/api/orders?q=${txHash.toUpperCase().replace('0X', '0x')}`)).body.map((o: { _id: string }) => o._id)).toEqual([carolOrder]);

    const unpaid = await walk('/api/orders?status=PENDING_PAYMENT,UNDERPAID');
    expect(unpaid.rows.map((o) => o._id)).toEqual([carolOrder]);
    // Bob's orders were placed 400 days ago and more.
    const old = await walk(`/api/orders?to=${ago(399).toISOString().slice(0, 10)}`);
    expect(old.rows.length).toBe(60);
    expect(new Set((old.rows as unknown as { user: { name: string } }[]).map((o) => o.user.name))).toEqual(new Set(['Bob Stone']));
    const recent = await walk(`/api/orders?from=${ago(30).toISOString().slice(0, 10)}&q=alice`);
    expect(recent.rows.length).toBe(70);

    // A search that names more buyers than are looked up first: every order of each, in order.
    const many = await Promise.all(Array.from({ length: 105 }, (_, i) => kit.createUser({ name: `Manyfold ${i}`, email: `manyfold-${i}@shop.test` })));
    for (const user of many) await insertOrders(user.id, 1, { status: 'PENDING_PAYMENT' });
    const broad = await walk('/api/orders?q=manyfold');
    expect(broad.rows.length).toBe(105);
    expect(new Set(broad.rows.map((o) => o._id)).size).toBe(105);
  });

  it("pages a buyer's own orders and never shows another buyer's", async () => {
    const mine = await walk('/api/orders/mine', await kit.as(bob));
    expect(mine.pages.map((p) => p.length)).toEqual([50, 10]);
    expect(new Set((mine.rows as unknown as { user: string }[]).map((o) => o.user))).toEqual(new Set([bob.id]));
    expect((await (await kit.as(bob)).get('/api/orders/mine?status=PAID')).body).toEqual([]);
  });

  it('keeps an open cashout a year old in reach: status=REQUESTED finds it first however many came after', async () => {
    const old = await insertCashout(alice.id, 'REQUESTED', ago(365));
    const newer: string[] = [];
    for (let i = 0; i < 60; i++) newer.push(await insertCashout(bob.id, 'REJECTED', ago(i / 10)));
    // Requests still waiting come oldest first: the one waiting longest on top.
    const waiting: string[] = [];
    for (let i = 0; i < 55; i++) waiting.push(await insertCashout(bob.id, i % 2 ? 'NOTIFIED' : 'REQUESTED', ago(200 - i)));
    const open = await walk('/api/admin/cashouts?status=REQUESTED,NOTIFIED');
    expect(open.rows.map((c) => c._id)).toEqual([old, ...waiting]);
    // Every request, newest first: the year-old one last.
    const all = await walk('/api/admin/cashouts');
    expect(all.rows.map((c) => c._id).at(-1)).toBe(old);
    expect(all.rows.length).toBe(61 + 55);
    expect(all.pages[0]!.length).toBe(50);
  });

  it('pages and searches users, and gives a referrer their count with the newest few names', async () => {
    const referrer = await kit.createUser({ name: 'Rita Referrer' });
    await kit.db.$executeRaw`
      INSERT INTO "User" ("id", "name", "email", "passwordHash", "referralCode", "referredById", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), 'Referred ' || g, 'referred' || g || '@example.net', 'x', 'R' || lpad(g::text, 9, '0'), ${referrer.id}::uuid, now() - g * interval '1 second', now()
      FROM generate_series(1, 120) g`;
    // Rows made by hand: their referrer's count too (registering keeps it; profile.test.ts).
    await kit.db.$executeRaw`UPDATE "User" SET "referralCount" = 120 WHERE "id" = ${referrer.id}::uuid`;
    const profile = await (await kit.as(referrer)).get('/api/users/profile');
    expect(profile.body.referralCount).toBe(120);
    expect(profile.body.referralCommand).toHaveLength(50);
    expect(profile.body.referralCommand[0].name).toBe('Referred 1');
    const referrals = await walk('/api/users/profile/referrals', await kit.as(referrer));
    expect(referrals.pages.map((p) => p.length)).toEqual([50, 50, 20]);

    const users = await walk('/api/users?limit=200');
    expect(users.rows.length).toBe(await kit.db.user.count({ where: { deletedAt: null } }));
    const found = await agent.get('/api/users?q=EXAMPLE.ORG');
    expect(found.body.map((u: { _id: string }) => u._id)).toEqual([bob.id]);
    // The search holds on every page, not only the first.
    const searched = await walk('/api/users?q=referred&limit=7');
    expect(searched.rows.length).toBe(120);
    expect(searched.rows.every((u) => (u as unknown as { name: string }).name.startsWith('Referred'))).toBe(true);
    expect((await (await kit.as(alice)).get('/api/users')).status).toBe(403);
  });

  it('pages the catalogue, searches it by name, and pages the other admin lists', async () => {
    await kit.db.$executeRaw`
      INSERT INTO "Product" ("id", "name", "image", "description", "price", "countInStock", "dailyCredit", "durationDays", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), 'Package ' || g, '/images/gold.svg', 'x', 10, 0, 1, 30, now() - (100 - g) * interval '1 minute', now()
      FROM generate_series(1, 75) g`;
    const guest = await kit.as(null);
    const catalogue = await walk('/api/products', guest);
    expect(catalogue.pages.map((p) => p.length)).toEqual([50, 25]);
    expect((catalogue.rows[0] as unknown as { name: string }).name).toBe('Package 1');
    // A link from a cached page carries only the list's own parameters.
    const first = await guest.get('/api/products?utm=mail');
    expect(first.headers.link).toMatch(/^<\/api\/products\?cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    const search = await guest.get('/api/products?q=package%207');
    expect(search.body.map((p: { name: string }) => p.name).sort()).toEqual(['Package 7', 'Package 70', 'Package 71', 'Package 72', 'Package 73', 'Package 74', 'Package 75']);

    // Transfers needing an admin: two states, read one per state and merged, newest first.
    await kit.db.$executeRaw`
      INSERT INTO "Payment" ("id", "txHash", "source", "status", "reason", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), '0x' || lpad(to_hex(g), 64, 'a'), 'INDEXED', (CASE WHEN g % 3 = 0 THEN 'LATE' ELSE 'UNRESOLVED' END)::"PaymentStatus", 'test',
             now() - (g / 2) * interval '1 minute', now()
      FROM generate_series(1, 13) g`;
    const waiting = await walk('/api/admin/payments?limit=4');
    expect(waiting.pages.map((p) => p.length)).toEqual([4, 4, 4, 1]);
    const expected = await kit.db.payment.findMany({ where: { status: { in: ['UNRESOLVED', 'LATE'] } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: { id: true } });
    expect(waiting.rows.map((r) => r._id)).toEqual(expected.map((p) => p.id));

    for (const path of ['/api/admin/payments', '/api/admin/refunds', '/api/admin/refunds/overpaid', '/api/admin/webhooks', '/api/admin/refunds?status=REQUESTED', '/api/admin/payments?status=COUNTED']) {
      const res = await agent.get(`${path}${path.includes('?') ? '&' : '?'}limit=5`);
      expect(res.status, path).toBe(200);
      expect(Array.isArray(res.body), path).toBe(true);
    }
  });
});
