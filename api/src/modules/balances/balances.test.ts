import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBalancesEqualLedger as expectBalancesEqualBooks } from '../../../../scripts/testing/books.ts';
import { applyLedger } from '@shop/core';
import { createApiTestKit, type ApiTestKit } from '../../testing/api-test-kit.ts';

// Anvil's third dev account (the receiving address is the second).
const PAYOUT_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

/** Exchange and cashout as a signed-in user calls them (the rules themselves: core/src/books/balances.test.ts). */
let kit: ApiTestKit;
beforeAll(async () => {
  kit = await createApiTestKit();
});
afterAll(async () => {
  await kit?.close();
});

const expectBalancesEqualLedger = (userId: string) => expectBalancesEqualBooks(kit.db, userId);

describe('exchange and cashout over HTTP', () => {
  it('exchange moves the whole active balance to passive; with zero balance it is a 400 that changes nothing', async () => {
    const user = await kit.createUser();
    const as = await kit.as(user);
    const empty = await as.post('/api/users/exchange');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Your active balance is empty: nothing to exchange');
    expect(await kit.db.ledgerEntry.count({ where: { userId: user.id } })).toBe(0);
    await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '12.34', kind: 'DAILY_CREDIT', idempotencyKey: `seed:${user.id}` }]);
    const res = await as.post('/api/users/exchange');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Balance exchanged!', activeBalance: 0, passiveBalance: 12.34 });
    await expectBalancesEqualLedger(user.id);
  });

  it('exchange moves the amount the user confirmed, exactly; a bad amount is a 400, one above the balance a 409, and nothing moves', async () => {
    const user = await kit.createUser();
    const as = await kit.as(user);
    await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '12.34', kind: 'DAILY_CREDIT', idempotencyKey: `seed-part:${user.id}` }]);
    for (const [amount, message] of [
      ['0', 'Enter an amount above 0.00 to exchange'],
      ['-1', 'Amount must be a non-negative amount with at most 2 decimals'],
      ['1.005', 'Amount must be a non-negative amount with at most 2 decimals'],
      ['ten', 'Amount must be a non-negative amount with at most 2 decimals'],
    ]) {
      const bad = await as.post('/api/users/exchange').send({ amount });
      expect({ amount, status: bad.status, message: bad.body.message }).toEqual({ amount, status: 400, message });
    }
    // Confirmed at 12.34, and the balance fell meanwhile (a cashout elsewhere): more than is there is never moved.
    const stale = await as.post('/api/users/exchange').send({ amount: '12.35' });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('Your active balance is 12.34 now, less than the 12.35 you asked to exchange: nothing was moved. Check the amount and exchange again.');
    expect(await kit.db.ledgerEntry.count({ where: { userId: user.id, kind: 'EXCHANGE' } })).toBe(0);

    const requestId = crypto.randomUUID();
    const part = await as.post('/api/users/exchange').send({ amount: '10.01', requestId });
    expect(part.status).toBe(200);
    expect(part.body).toEqual({ message: 'Balance exchanged!', activeBalance: 2.33, passiveBalance: 10.01 });
    // The same confirmation sent again (a retry after a lost answer) moves nothing more.
    const again = await as.post('/api/users/exchange').send({ amount: '10.01', requestId });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: 'Balance exchanged!', activeBalance: 2.33, passiveBalance: 10.01 });
    // The same id for another amount is not the same exchange: refused, nothing moves.
    const other = await as.post('/api/users/exchange').send({ amount: '1.00', requestId });
    expect({ status: other.status, message: other.body.message }).toEqual({ status: 409, message: 'This exchange was already made, of 10.01: nothing more was moved. Check your balances.' });
    expect(await kit.db.ledgerEntry.count({ where: { userId: user.id, kind: 'EXCHANGE' } })).toBe(2);
    await expectBalancesEqualLedger(user.id);
  });

  it("cashout needs more than 20 and a valid address: 'Not Enough Money' at exactly 20", async () => {
    const user = await kit.createUser();
    await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '20.00', kind: 'DAILY_CREDIT', idempotencyKey: `seed20:${user.id}` }]);
    const as = await kit.as(user);
    const bad = await as.post('/api/users/cashout').send({ wallet: '0x1234' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Ethereum address/);
    const poor = await as.post('/api/users/cashout').send({ wallet: PAYOUT_WALLET });
    expect(poor.status).toBe(400);
    expect(poor.body.message).toBe('Not Enough Money');
    expect(await kit.db.cashoutRequest.count({ where: { userId: user.id } })).toBe(0);
  });

  it("8. a cashout cannot name the shop's own receiving address or a mixed-case address whose checksum is wrong", async () => {
    const user = await kit.createUser();
    await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '50.00', kind: 'DAILY_CREDIT', idempotencyKey: `seed50:${user.id}` }]);
    const as = await kit.as(user);
    const own = await as.post('/api/users/cashout').send({ wallet: kit.env.config.receivingAddress.toLowerCase() });
    expect(own.status).toBe(400);
    expect(own.body.message).toBe("This is the shop's own receiving address: enter the wallet the payout should go to");
    const typo = await as.post('/api/users/cashout').send({ wallet: '0x3c44CdDdB6a900fa2b585dd299e03d12FA4293BC' });
    expect(typo.status).toBe(400);
    expect(typo.body.message).toMatch(/checksum/);
    expect(await kit.db.cashoutRequest.count({ where: { userId: user.id } })).toBe(0);
    const lower = await as.post('/api/users/cashout').send({ wallet: PAYOUT_WALLET.toLowerCase() });
    expect(lower.status).toBe(200);
  });

  it('50 concurrent cashouts of one user: exactly one succeeds, the ledger shows one cashout', async () => {
    const user = await kit.createUser();
    await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '75.50', kind: 'DAILY_CREDIT', idempotencyKey: `seed75:${user.id}` }]);
    const as = await kit.as(user);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => as.post('/api/users/cashout').send({ wallet: PAYOUT_WALLET })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400).every((r) => r.body.message === 'Not Enough Money')).toBe(true);
    const ok = results.find((r) => r.status === 200)!;
    expect(ok.body.activeBalance).toBe(0);
    const requests = await kit.db.cashoutRequest.findMany({ where: { userId: user.id } });
    expect(requests.map((r) => r.amountUsd.toFixed(2))).toEqual(['75.50']);
    expect(await kit.db.ledgerEntry.count({ where: { userId: user.id, kind: 'CASHOUT' } })).toBe(1);
    await expectBalancesEqualLedger(user.id);
    // The operator notice is queued once.
    expect(await kit.env.runtime.queues.email.getJob(`cashout-${requests[0]!.id}`)).toBeTruthy();
  });

  it('admins mark a cashout paid or reject it (the amount returns through the ledger); others cannot', async () => {
    const admin = await kit.createUser({ isAdmin: true });
    const user = await kit.createUser();
    await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '30.00', kind: 'DAILY_CREDIT', idempotencyKey: `seed30:${user.id}` }]);
    await (await kit.as(user)).post('/api/users/cashout').send({ wallet: PAYOUT_WALLET });
    const [request] = await kit.db.cashoutRequest.findMany({ where: { userId: user.id } });
    expect((await (await kit.as(user)).get('/api/admin/cashouts')).status).toBe(403);
    expect((await (await kit.as(user)).post(`/api/admin/cashouts/${request!.id}/reject`)).status).toBe(403);
    expect((await (await kit.as(null)).get('/api/admin/cashouts')).status).toBe(401);
    const asAdmin = await kit.as(admin);
    const list = await asAdmin.get('/api/admin/cashouts');
    expect(list.body.find((c: { _id: string }) => c._id === request!.id)).toMatchObject({ amountUsd: 30, status: 'REQUESTED', user: { _id: user.id } });
    const rejected = await asAdmin.post(`/api/admin/cashouts/${request!.id}/reject`);
    expect(rejected.body.status).toBe('REJECTED');
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).activeBalance.toFixed(2)).toBe('30.00');
    expect((await asAdmin.post(`/api/admin/cashouts/${request!.id}/reject`)).status).toBe(409);
    await expectBalancesEqualLedger(user.id);
    await (await kit.as(user)).post('/api/users/cashout').send({ wallet: PAYOUT_WALLET });
    const second = await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id, status: 'REQUESTED' } });
    expect((await asAdmin.post(`/api/admin/cashouts/${second.id}/paid`).send({ payoutTxHash: 'nope' })).status).toBe(400);
    // Requested while no price could be read (this kit has no chain): the payout is valued
    // at today's price, which cannot be read either: a 503 that changes nothing.
    const noPrice = await asAdmin.post(`/api/admin/cashouts/${second.id}/paid`).send({ payoutTxHash: `0x${'ef'.repeat(32)}` });
    expect(noPrice.status).toBe(503);
    expect(await kit.db.payoutCheck.count({ where: { cashoutId: second.id } })).toBe(0);
    // Paid only once the worker verified the hash on chain (worker/src/money-paths/refunds-and-payouts.test.ts):
    // meanwhile it stays open and cannot be rejected.
    await kit.db.cashoutRequest.update({ where: { id: second.id }, data: { ethUsd: '3000' } });
    const paid = await asAdmin.post(`/api/admin/cashouts/${second.id}/paid`).send({ payoutTxHash: `0x${'ef'.repeat(32)}` });
    expect(paid.status).toBe(202);
    expect(paid.body).toMatchObject({ status: 'REQUESTED', payoutTxHash: null, check: { txHash: `0x${'ef'.repeat(32)}`, status: 'CHECKING' } });
    expect((await asAdmin.post(`/api/admin/cashouts/${second.id}/reject`)).status).toBe(409);
  });
});
