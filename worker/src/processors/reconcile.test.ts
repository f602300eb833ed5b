import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestReconciliation } from '@shop/core';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { waitFor } from '../../../scripts/testing/chain.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

let kit: PaymentKit;
let admin: TestUser;
let buyer: TestUser;

beforeAll(async () => {
  kit = await createPaymentKit();
  admin = await kit.createUser({ isAdmin: true });
  buyer = await kit.createUser();
});
afterAll(async () => {
  await kit?.close();
});

describe("an admin's 'Check now'", () => {
  it('queues a full audit for the worker (202, never run inside the request) and its report replaces the latest', async () => {
    const asked = new Date();
    const res = await (await kit.as(admin)).post('/api/admin/reconciliation/run');
    expect(res.status).toBe(202);
    expect(res.body.message).toMatch(/^(The audit of the books has started|An audit of the books is already running)$/);
    const report = await waitFor('the audit it asked for to report', async () => {
      const latest = await latestReconciliation(kit.db);
      return latest?.scope === 'audit' && latest.startedAt >= asked ? latest : null;
    }, 120_000);
    expect(report).toMatchObject({ scope: 'audit', since: null, discrepancies: [] });
    expect(report.checked.users).toBe(await kit.db.user.count());
    const shown = await (await kit.as(admin)).get('/api/admin/reconciliation');
    expect(shown.body.report).toMatchObject({ scope: expect.stringMatching(/^(audit|changes)$/), discrepancies: [] });

    expect((await (await kit.as(buyer)).post('/api/admin/reconciliation/run')).status).toBe(403);
  }, 180_000);
});
