import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { reportDrill } from '../../../scripts/testing/drill-report.ts';
import { listRoutes } from '../../../api/src/route-table.ts';
import { randomUUID } from 'node:crypto';
import { createProduct } from '@shop/core';

/**
 * Every endpoint fuzzed with generated bodies, query strings and headers, as a guest, a
 * user and an admin: never a 500, never a crash, and nothing stored from a request that
 * was refused.
 */
let kit: ApiTestKit;
let user: TestUser;
let admin: TestUser;
let productId: string;
let orderId: string;

beforeAll(async () => {
  kit = await createApiTestKit({ chain: true });
  user = await kit.createUser();
  admin = await kit.createUser({ isAdmin: true });
  const product = await createProduct(kit.db, { name: 'P', image: '/images/gold.svg', description: 'd', price: '10.00', countInStock: 1000 });
  productId = product.id;
  const order = await (await kit.as(user)).post('/api/orders').send({ orderedItems: [{ _id: productId, qty: 1 }], itemsPrice: 10, totalPrice: 10 });
  orderId = order.body._id;
});
afterAll(async () => {
  await kit?.close();
});

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

/**
 * Every route the app answers, from Express's own router (api/src/route-table.ts): a
 * route added later is fuzzed without anyone listing it. Path parameters are filled
 * from real ids, unknown ids and junk.
 */
const routes = () => listRoutes(kit.app);
const paramValues = (name: string): string[] => {
  switch (name) {
    case 'id':
      return [user.id, admin.id, productId, orderId, randomUUID(), 'not-an-id', '%27;--'];
    case 'queueName':
      return ['email', 'payment-verify', 'no-such-queue'];
    case 'queueStatus':
      return ['failed', 'completed', 'nonsense'];
    default:
      return ['1', 'x', randomUUID()];
  }
};
const fillPath = (pattern: string, pick: (n: number) => number) =>
  pattern.replace(/:(\w+)/g, (_m, name: string) => {
    const values = paramValues(name);
    return encodeURIComponent(values[pick(values.length)]!);
  });

async function snapshot() {
  const db = kit.db;
  const [users, products, orders, payments, ledger, cashouts, u, p] = await Promise.all([
    db.user.count(), db.product.count(), db.order.count(), db.payment.count(), db.ledgerEntry.count(), db.cashoutRequest.count(),
    db.user.findUniqueOrThrow({ where: { id: user.id } }), db.product.findUniqueOrThrow({ where: { id: productId } }),
  ]);
  return JSON.stringify({ users, products, orders, payments, ledger, cashouts, u: [u.name, u.email, u.activeBalance.toFixed(2), u.isAdmin], p: [p.name, p.price.toFixed(2), p.countInStock] });
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const hex = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: min, maxLength: max });
const body = fc.oneof(
  jsonValue,
  fc.record({
    email: fc.oneof(fc.emailAddress(), fc.string(), jsonValue),
    password: fc.oneof(fc.string({ maxLength: 300 }), jsonValue),
    name: fc.oneof(fc.string({ maxLength: 300 }), jsonValue),
    price: fc.oneof(fc.double(), fc.string(), jsonValue),
    countInStock: fc.oneof(fc.integer(), fc.double(), fc.string()),
    orderedItems: fc.oneof(fc.array(fc.record({ _id: fc.oneof(fc.uuid(), fc.string()), qty: fc.oneof(fc.integer(), fc.string()) }), { maxLength: 3 }), jsonValue),
    totalPrice: fc.oneof(fc.double(), fc.string(), jsonValue),
    txHash: fc.oneof(hex(0, 70).map((h) => `0x${h}`), jsonValue),
    wallet: fc.oneof(hex(38, 42).map((h) => `0x${h}`), jsonValue),
    isAdmin: fc.oneof(fc.boolean(), jsonValue),
    activeBalance: fc.oneof(fc.double(), fc.string(), jsonValue),
  }, { requiredKeys: [] }),
);
const rawBody = fc.oneof(fc.string({ maxLength: 200 }), fc.constant('{"a":'), fc.constant('\u0000\u0001'), fc.constant('[1,2'));
const query = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(fc.string({ maxLength: 40 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }).map((a) => a.join(','))), { maxKeys: 3 });
const headers = fc.record({
  'content-type': fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1'),
  'x-request-id': fc.string({ maxLength: 120 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
}, { requiredKeys: [] });

describe('drill: fuzzing every endpoint', () => {
  it('never answers 500 and stores nothing from a refused request', async () => {
    const table = routes();
    expect(table.length).toBeGreaterThan(60);
    const sessions = [null, user, admin];
    const tally = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.nat(table.length - 1), fc.nat(1000), fc.nat(2), fc.boolean(), body, rawBody, query, headers, async (r, seed, s, useRaw, json, raw, q, h) => {
        const route = table[r]!;
        const method = route.method.toLowerCase() as Method;
        const path = fillPath(route.path, (n) => seed % n);
        const before = await snapshot();
        let req = (await kit.as(sessions[s]!))[method](path).query(q);
        for (const [k, v] of Object.entries(h)) req = req.set(k, v as string);
        // Non-JSON content types get the JSON text as a raw body.
        const asText = useRaw || (h['content-type'] && !h['content-type'].startsWith('application/json')) || json === null || typeof json !== 'object';
        if (!h['content-type'] && asText && !useRaw) req = req.set('content-type', 'application/json');
        const res = await req.send(useRaw ? raw : asText ? JSON.stringify(json) : (json as object));
        tally.set(res.status, (tally.get(res.status) ?? 0) + 1);
        expect(res.status, `${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`).toBeLessThan(500);
        // An error is JSON with a message; the queue dashboard (bull-board) answers in its
        // own shape, which its UI reads ({ error: { key } }), or with an HTML page.
        const dashboard = path.startsWith('/admin/queues') && (typeof res.body?.error?.key === 'string' || /^text\/html/.test(String(res.headers['content-type'])));
        expect(typeof res.body.message === 'string' || res.status < 400 || dashboard, `${method} ${path}: error without a message`).toBe(true);
        if (res.status >= 400) expect(await snapshot(), `${method} ${path} (${res.status}) changed data`).toBe(before);
      }),
      { numRuns: 1000, seed: Number(process.env.FUZZ_SEED ?? 20261122), endOnFailure: true },
    );
    const answers = [...tally].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`).join(', ');
    reportDrill(`1,000 generated requests over the app's ${table.length} routes (read from its router) as guest, user and admin: ${answers}; no 500, every error with a message, the data unchanged after each refusal`);
    // A thousand requests, each with a snapshot of the data around it: about 10 s alone,
    // past a minute when the whole suite shares a two-core machine.
  }, 240_000);
});
