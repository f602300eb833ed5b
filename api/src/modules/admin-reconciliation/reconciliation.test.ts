import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReconciliationJson } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

/**
 * The reconciler's report in the admin's language (issue 41): each finding's message and
 * the checked line's words in Russian for Accept-Language ru, in English without; the
 * stored report stays English.
 */
let kit: ApiTestKit;
let admin: TestUser;

const stock = 'The order holds 2 of the package but its movements took 1';
const tags = 'Tag 7 is held by 3 orders';
const discrepancies = [
  { check: 'stock-held', message: stock, ids: { orderId: 'o-1', productId: 'p-1' } },
  { check: 'tag-twice', message: tags, ids: { orderIds: 'o-2,o-3,o-4' } },
];
const checked = { users: 3, chain: 'not checked: chain checks left out', 'audit head': '12:ab' };

beforeAll(async () => {
  kit = await createApiTestKit();
  admin = await kit.createUser({ name: 'Reconciler', isAdmin: true, email: 'reconciler@example.com' });
  // A report as the reconciler stores it (its own tests make real findings; here the words matter).
  await kit.db.reconciliationRun.create({ data: { startedAt: new Date('2026-11-22T10:00:00Z'), durationMs: 42, discrepancies, checked, scope: 'audit' } });
});
afterAll(async () => {
  await kit?.close();
});

const readReport = async (headers: Record<string, string> = {}) => {
  const res = await (await kit.as(admin)).get('/api/admin/reconciliation').set(headers);
  expect(res.status).toBe(200);
  return (res.body as { report: ReconciliationJson }).report;
};

describe('GET /api/admin/reconciliation in the admin language', () => {
  it("answers each finding and the checked line's words in Russian for Accept-Language ru, ids, checks and counts as they are", async () => {
    const report = await readReport({ 'Accept-Language': 'ru' });
    expect(report.discrepancies).toEqual([
      { check: 'stock-held', message: 'Заказ держит 2 шт. пакета, но движения запаса списали на него 1', ids: { orderId: 'o-1', productId: 'p-1' } },
      { check: 'tag-twice', message: 'Метку 7 держат 3 заказа', ids: { orderIds: 'o-2,o-3,o-4' } },
    ]);
    expect(report.checked).toEqual({ users: 3, chain: 'не проверено: проверки блокчейна отключены', 'audit head': '12:ab' });
  });

  it('answers in English without a language, and keeps the stored report English', async () => {
    const report = await readReport();
    expect(report.discrepancies.map((d) => d.message)).toEqual([stock, tags]);
    expect(report.checked).toEqual(checked);
    const stored = await kit.db.reconciliationRun.findFirstOrThrow({ orderBy: { createdAt: 'desc' } });
    expect((stored.discrepancies as { message: string }[]).map((d) => d.message)).toEqual([stock, tags]);
  });
});
