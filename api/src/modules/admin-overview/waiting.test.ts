import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { applyLedger, requestCashout } from '@shop/core';
import { WAITING_CAP, type AdminWaitingJson } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

let kit: ApiTestKit;
let ada: TestUser;
let bob: TestUser;
let buyer: TestUser;
const WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

beforeAll(async () => {
  kit = await createApiTestKit();
  ada = await kit.createUser({ name: 'Ada Admin', isAdmin: true });
  bob = await kit.createUser({ name: 'Bob Admin', isAdmin: true });
  buyer = await kit.createUser({ name: 'Cash Buyer' });
});
afterAll(async () => {
  await kit?.close();
});

const waitingFor = async (admin: TestUser) => (await (await kit.as(admin)).get('/api/admin/overview/waiting')).body as AdminWaitingJson;

/** A pending balance increase asked by `by` for `beneficiary`. */
const ask = (by: TestUser, beneficiary: TestUser) =>
  kit.db.approval.create({ data: { kind: 'BALANCE_INCREASE', subjectType: 'user', subjectId: beneficiary.id, beneficiaryId: beneficiary.id, amountUsd: '500.00', change: { active: '500.00', passive: '0.00' }, requestedById: by.id } });

describe('GET /api/admin/overview/waiting (the Admin menu’s counts)', () => {
  it('counts the approvals this admin may decide and the cashouts waiting to be paid', async () => {
    expect(await waitingFor(ada)).toEqual({ approvals: 0, cashouts: 0 });

    // Ada's own request waits for Bob, not for her; one that pays Bob waits for Ada alone.
    await ask(ada, buyer);
    await ask(ada, bob);
    const decided = await ask(bob, buyer);
    await kit.db.approval.update({ where: { id: decided.id }, data: { status: 'APPROVED', decidedById: ada.id, decidedAt: new Date() } });
    expect((await waitingFor(ada)).approvals).toBe(0);
    expect((await waitingFor(bob)).approvals).toBe(1);

    await applyLedger(kit.db, [{ userId: buyer.id, account: 'ACTIVE', amount: '45.00', kind: 'ADMIN_ADJUSTMENT', idempotencyKey: 'waiting-test:balance' }]);
    await requestCashout(kit.db, kit.env.runtime.config, { userId: buyer.id, wallet: WALLET });
    expect((await waitingFor(ada)).cashouts).toBe(1);
    // Once the operator was told (NOTIFIED) it still waits to be paid.
    await kit.db.cashoutRequest.updateMany({ where: { userId: buyer.id }, data: { status: 'NOTIFIED' } });
    expect(await waitingFor(ada)).toEqual({ approvals: 0, cashouts: 1 });
  });

  it(`stops counting at ${WAITING_CAP}: the menu shows "${WAITING_CAP - 1}+" beyond`, async () => {
    for (let i = 0; i < WAITING_CAP + 5; i++) await ask(bob, buyer);
    expect((await waitingFor(ada)).approvals).toBe(WAITING_CAP);
  });

  it('is for admins only', async () => {
    expect((await request(kit.app).get('/api/admin/overview/waiting')).status).toBe(401);
    expect((await (await kit.as(buyer)).get('/api/admin/overview/waiting')).status).toBe(403);
  });
});
