import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import request from 'supertest';
import { applyLedger, askRefundApprovals, cancelLinkForMail, createProduct, creditDaily, grantAdminFromShell, OWN_MONEY_APPROVAL, Prisma, SELF_APPROVAL } from '@shop/core';
import type { ApprovalJson, CashoutJson, UserJson } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';
import { expectBooksBalanced } from '../../../../scripts/testing/books.ts';

// APPROVAL_THRESHOLD_USD is left at its default, 500.
let kit: ApiTestKit;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
beforeAll(async () => {
  // The refund rows of 'large refunds' are written directly, without their transfers, and
  // the paid orders of 'cashouts counted per package' without the transfers that paid them.
  kit = await createApiTestKit({ reconcileSkip: ['refund-transfer', 'paid-not-covered'] });
  alice = await kit.createUser({ name: 'Alice', isAdmin: true });
  bob = await kit.createUser({ name: 'Bob', isAdmin: true });
  carol = await kit.createUser({ name: 'Carol', isAdmin: true });
});
afterAll(async () => {
  await kit?.close();
});

const WALLET = '0x1111111111111111111111111111111111111111';
/** Why the admin asks (required on every request for a payout's approval). */
const REASON = 'The buyer confirmed the wallet by phone';
const HASH = (n: number) => `0x${n.toString(16).padStart(64, 'a')}`;

async function credit(user: TestUser, amount: string): Promise<void> {
  await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount, kind: 'DAILY_CREDIT', idempotencyKey: `approvals-test:${user.id}:${randomUUID()}` }]);
}

async function balances(user: TestUser) {
  const u = await kit.db.user.findUniqueOrThrow({ where: { id: user.id } });
  return { active: u.activeBalance.toFixed(2), passive: u.passiveBalance.toFixed(2) };
}

/** An admin's edit of `user`'s active balance, from what the form loaded. */
async function editActive(admin: TestUser, user: TestUser, to: string) {
  const loaded = await balances(user);
  return (await kit.as(admin)).put(`/api/users/${user.id}`).send({
    name: user.name, email: user.email, isAdmin: user.isAdmin,
    activeBalance: to, passiveBalance: loaded.passive, loadedActiveBalance: loaded.active, loadedPassiveBalance: loaded.passive,
  });
}

async function cashout(user: TestUser, amount: string): Promise<string> {
  await credit(user, amount);
  const res = await (await kit.as(user)).post('/api/users/cashout').send({ wallet: WALLET });
  expect(res.status).toBe(200);
  const row = await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id }, orderBy: { createdAt: 'desc' } });
  // The price the payout is valued at (this api has no price feed).
  await kit.db.cashoutRequest.update({ where: { id: row.id }, data: { ethUsd: new Prisma.Decimal('3000') } });
  return row.id;
}

/**
 * A user who bought one of `productId` an hour before today's UTC midnight (a paid order,
 * written directly): the daily credit job then credits today's day.
 */
async function packageBuyer(productId: string): Promise<TestUser> {
  const user = await kit.createUser();
  const paidAt = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 3_600_000);
  const product = await kit.db.product.findUniqueOrThrow({ where: { id: productId } });
  const order = await kit.db.order.create({
    data: {
      userId: user.id, status: 'PAID', stockReserved: false, itemsPrice: 1, totalPrice: 1, paidVersion: 1, paidAt, createdAt: paidAt,
      items: { create: [{ productId, name: product.name, image: product.image, price: 1, qty: 1, dailyCredit: product.dailyCredit, durationDays: product.durationDays, creditEndsAt: new Date(paidAt.getTime() + product.durationDays * 86_400_000) }] },
    },
  });
  expect(order.status).toBe('PAID');
  return user;
}

/** `user` cashes out their whole active balance (valued at $3000/ETH); the cashout's id. */
async function cashoutAll(user: TestUser, wallet = WALLET): Promise<string> {
  expect((await (await kit.as(user)).post('/api/users/cashout').send({ wallet })).status).toBe(200);
  const row = await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id }, orderBy: { createdAt: 'desc' } });
  await kit.db.cashoutRequest.update({ where: { id: row.id }, data: { ethUsd: new Prisma.Decimal('3000') } });
  return row.id;
}

const approve = async (admin: TestUser, id: string) => (await kit.as(admin)).post(`/api/admin/approvals/${id}/approve`);
const reject = async (admin: TestUser, id: string) => (await kit.as(admin)).post(`/api/admin/approvals/${id}/reject`);
const withdraw = async (admin: TestUser, id: string) => (await kit.as(admin)).post(`/api/admin/approvals/${id}/withdraw`);
const markPaid = async (admin: TestUser, cashoutId: string, n: number) => (await kit.as(admin)).post(`/api/admin/cashouts/${cashoutId}/paid`).send({ payoutTxHash: HASH(n) });

const expectBooksBalance = () => expectBooksBalanced(kit.env.runtime, 'approvals.test.ts');

describe('a large balance increase', () => {
  it('is held, not applied, until a second admin approves it; then it is added to the balance as it is by then', async () => {
    const user = await kit.createUser();
    await credit(user, '20.00');
    const edit = await editActive(alice, user, '620.00');
    expect(edit.status).toBe(202);
    const body = edit.body as UserJson;
    expect(body.pendingApproval).toMatchObject({ amountUsd: 600 });
    expect(await balances(user)).toEqual({ active: '20.00', passive: '0.00' });

    const list = await (await kit.as(bob)).get('/api/admin/approvals?status=PENDING');
    const mine = (list.body as ApprovalJson[]).find((a) => a._id === body.pendingApproval!._id);
    expect(mine).toMatchObject({ kind: 'BALANCE_INCREASE', status: 'PENDING', amountUsd: 600, change: { active: '600.00', passive: '0.00' }, requestedBy: { _id: alice.id }, beneficiary: { _id: user.id } });

    // Daily credit arrives meanwhile: the approved change adds to it, never overwrites it.
    await credit(user, '5.00');
    expect((await approve(alice, mine!._id)).body.message).toBe(SELF_APPROVAL);
    const approved = await approve(bob, mine!._id);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'APPROVED', decidedBy: { _id: bob.id } });
    expect(await balances(user)).toEqual({ active: '625.00', passive: '0.00' });
    // Decided once: approving again changes nothing.
    expect((await approve(carol, mine!._id)).status).toBe(409);
    expect(await balances(user)).toEqual({ active: '625.00', passive: '0.00' });

    const audit = await kit.db.auditEntry.findMany({ where: { subjectId: user.id, action: { startsWith: 'approval.' } }, orderBy: { seq: 'asc' } });
    expect(audit.map((e) => [e.action, e.actorId])).toEqual([['approval.requested', alice.id], ['approval.approved', bob.id]]);
    await expectBooksBalance();
  });

  it('counts the same admin\'s direct increases of the last 24 hours: small edits cannot add up past the threshold unseen', async () => {
    const admin = await kit.createUser({ isAdmin: true });
    const [u1, u2] = [await kit.createUser(), await kit.createUser()];
    expect((await editActive(admin, u1, '300.00')).status).toBe(200);
    expect(await balances(u1)).toEqual({ active: '300.00', passive: '0.00' });
    const second = await editActive(admin, u2, '300.00');
    expect(second.status).toBe(202);
    expect(await balances(u2)).toEqual({ active: '0.00', passive: '0.00' });
    // A decrease is never held.
    expect((await editActive(admin, u1, '0.00')).status).toBe(200);
    await expectBooksBalance();
  });

  it('one admin\'s edits sent at once are counted one after another: they cannot each see the day\'s window empty', async () => {
    const admin = await kit.createUser({ isAdmin: true });
    const targets = await Promise.all(Array.from({ length: 4 }, () => kit.createUser()));
    const results = await Promise.all(targets.map((t) => editActive(admin, t, '400.00')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 202, 202, 202]);
    const credited = await Promise.all(targets.map(balances));
    expect(credited.filter((b) => b.active === '400.00')).toHaveLength(1);
    await expectBooksBalance();
  });

  it('two admins approving at once apply it once; the requester may withdraw it, never approve it', async () => {
    const user = await kit.createUser();
    const edit = await editActive(alice, user, '900.00');
    const id = (edit.body as UserJson).pendingApproval!._id;
    const [a, b] = await Promise.all([approve(bob, id), approve(carol, id)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await balances(user)).toEqual({ active: '900.00', passive: '0.00' });

    const other = await kit.createUser();
    const held = (await editActive(alice, other, '700.00')).body as UserJson;
    const withdrawn = await withdraw(alice, held.pendingApproval!._id);
    expect(withdrawn.body).toMatchObject({ status: 'REJECTED', decidedBy: { _id: alice.id } });
    expect((await approve(bob, held.pendingApproval!._id)).status).toBe(409);
    expect(await balances(other)).toEqual({ active: '0.00', passive: '0.00' });
    await expectBooksBalance();
  });

  it('an admin\'s increase of their own balance needs another admin', async () => {
    const selfish = await kit.createUser({ isAdmin: true });
    const id = ((await editActive(selfish, selfish, '800.00')).body as UserJson).pendingApproval!._id;
    expect((await approve(selfish, id)).status).toBe(403);
    expect((await approve(bob, id)).status).toBe(200);
    expect(await balances(selfish)).toEqual({ active: '800.00', passive: '0.00' });
  });
});

describe('a large cashout payout', () => {
  it('cannot be marked paid until a second admin approved paying it; a small one goes through as before', async () => {
    const buyer = await kit.createUser();
    const id = await cashout(buyer, '700.00');
    const list = (await (await kit.as(alice)).get('/api/admin/cashouts?status=REQUESTED,NOTIFIED')).body as CashoutJson[];
    expect(list.find((c) => c._id === id)?.approval).toEqual({ needed: true, current: null });

    const refused = await markPaid(alice, id, 1);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ approvalRequired: true });
    expect(refused.body.message).toMatch(/worth \$700\.00, more than the \$500\.00 one admin may pay alone/);
    expect(await kit.db.payoutCheck.count({ where: { cashoutId: id } })).toBe(0);

    // A request says why: none, blank or too long is a 400 that asks nothing.
    for (const [body, message] of [
      [{ kind: 'cashout', id }, 'Reason is required: say why the second admin should approve it'],
      [{ kind: 'cashout', id, reason: '   ' }, 'Reason is required: say why the second admin should approve it'],
      [{ kind: 'cashout', id, reason: 'x'.repeat(501) }, 'Reason must be at most 500 characters'],
      // A right-to-left override would make the approver read other terms than were written.
      [{ kind: 'cashout', id, reason: 'Pay \u202e05 DSU' }, 'Reason must be plain text (no control or invisible formatting characters)'],
    ] as const) {
      const bad = await (await kit.as(alice)).post('/api/admin/approvals').send(body);
      expect({ status: bad.status, message: bad.body.message }).toEqual({ status: 400, message });
    }
    expect(await kit.db.approval.count({ where: { subjectId: id } })).toBe(0);

    const asked = await (await kit.as(alice)).post('/api/admin/approvals').send({ kind: 'cashout', id, reason: ` ${REASON} ` });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ kind: 'PAYOUT', status: 'PENDING', subject: { type: 'cashout', id }, amountUsd: 700, beneficiary: { _id: buyer.id }, reason: REASON });
    expect((await kit.db.approval.findUniqueOrThrow({ where: { id: asked.body._id } })).reason).toBe(REASON);
    expect(((await (await kit.as(bob)).get('/api/admin/approvals')).body as ApprovalJson[]).find((a) => a._id === asked.body._id)?.reason).toBe(REASON);
    // Asking twice gives the same request.
    expect((await (await kit.as(carol)).post('/api/admin/approvals').send({ kind: 'cashout', id, reason: REASON })).body._id).toBe(asked.body._id);
    expect((await approve(alice, asked.body._id)).status).toBe(403);
    expect((await markPaid(alice, id, 1)).status).toBe(409);
    expect((await approve(bob, asked.body._id)).status).toBe(200);
    expect((await markPaid(alice, id, 1)).status).toBe(202);
    expect(await kit.db.payoutCheck.count({ where: { cashoutId: id } })).toBe(1);

    const small = await cashout(await kit.createUser(), '120.00');
    expect((await markPaid(alice, small, 2)).status).toBe(202);
    expect((await (await kit.as(alice)).post('/api/admin/approvals').send({ kind: 'cashout', id: small, reason: REASON })).status).toBe(409);
  });

  it("counts a user's cashouts of the 24 hours before it: a balance cashed out in small pieces is judged as a whole", async () => {
    const splitter = await kit.createUser();
    const first = await cashout(splitter, '300.00');
    const second = await cashout(splitter, '300.00');
    expect((await markPaid(alice, first, 20)).status).toBe(202);
    const refused = await markPaid(alice, second, 21);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/with the same user's cashouts of the 24 hours before it\) is worth \$600\.00/);
    const list = (await (await kit.as(alice)).get('/api/admin/cashouts?status=REQUESTED,NOTIFIED')).body as CashoutJson[];
    expect(list.find((c) => c._id === second)?.approval.needed).toBe(true);
    const asked = await (await kit.as(alice)).post('/api/admin/approvals').send({ kind: 'cashout', id: second, reason: REASON });
    expect(asked.body).toMatchObject({ status: 'PENDING', amountUsd: 300 });
  });

  it('an admin cannot approve the payout of their own cashout', async () => {
    const id = await cashout(carol, '650.00');
    const asked = await (await kit.as(alice)).post('/api/admin/approvals').send({ kind: 'cashout', id, reason: REASON });
    const own = await approve(carol, asked.body._id);
    expect(own.status).toBe(403);
    expect(own.body.message).toBe(OWN_MONEY_APPROVAL);
    expect((await approve(bob, asked.body._id)).status).toBe(200);
  });

  it('a rejected request leaves it unpayable until asked and approved again', async () => {
    const id = await cashout(await kit.createUser(), '510.00');
    const first = await (await kit.as(alice)).post('/api/admin/approvals').send({ kind: 'cashout', id, reason: REASON });
    expect((await reject(bob, first.body._id)).body.status).toBe('REJECTED');
    expect((await markPaid(alice, id, 3)).status).toBe(409);
    const again = await (await kit.as(alice)).post('/api/admin/approvals').send({ kind: 'cashout', id, reason: REASON });
    expect(again.body._id).not.toBe(first.body._id);
    expect((await approve(bob, again.body._id)).status).toBe(200);
    expect((await markPaid(alice, id, 3)).status).toBe(202);
  });
});

describe('cashouts counted per admin and per package', () => {
  const PAID_ALONE = /^This payout \(with the cashouts you paid without a second admin in the last 24 hours\) is worth \$600\.00, more than the \$500\.00 one admin may pay alone/;

  it('the cashouts one admin paid without a second admin in 24 hours count together: past the threshold, their next one waits', async () => {
    const payer = await kit.createUser({ isAdmin: true });
    const [a, b, c] = [await cashout(await kit.createUser(), '200.00'), await cashout(await kit.createUser(), '200.00'), await cashout(await kit.createUser(), '200.00')];
    expect((await markPaid(payer, a, 30)).status).toBe(202);
    expect((await markPaid(payer, b, 31)).status).toBe(202);
    const list = async (admin: TestUser) => ((await (await kit.as(admin)).get('/api/admin/cashouts?status=REQUESTED,NOTIFIED')).body as CashoutJson[]).find((x) => x._id === c);
    // The page tells the admin who would pay it before the ETH is sent.
    expect((await list(payer))?.approval.needed).toBe(true);
    const refused = await markPaid(payer, c, 32);
    expect(refused.status).toBe(409);
    expect(refused.body.approvalRequired).toBe(true);
    expect(refused.body.message).toMatch(PAID_ALONE);
    expect(await kit.db.payoutCheck.count({ where: { cashoutId: c } })).toBe(0);
    // Approved by a second admin, it is paid (and a payout a second admin approved does not count toward the payer's own).
    const asked = await (await kit.as(payer)).post('/api/admin/approvals').send({ kind: 'cashout', id: c, reason: REASON });
    expect(asked.status).toBe(201);
    expect((await approve(bob, asked.body._id)).status).toBe(200);
    expect((await markPaid(payer, c, 32)).status).toBe(202);
  });

  it("the cashouts of 24 hours whose money came from one package's daily credit count together, whichever admins pay them", async () => {
    const penny = await createProduct(kit.db, { name: 'Penny Package', image: '/images/p.svg', description: 'd', price: new Prisma.Decimal('0.01'), dailyCredit: new Prisma.Decimal('200.00'), durationDays: 30 });
    const other = await createProduct(kit.db, { name: 'Other Package', image: '/images/o.svg', description: 'd', price: new Prisma.Decimal('300.00'), dailyCredit: new Prisma.Decimal('200.00'), durationDays: 1 });
    // Throwaway accounts each bought one yesterday; today's daily credit gave each $200.
    const buyers = [await packageBuyer(penny.id), await packageBuyer(penny.id), await packageBuyer(penny.id), await packageBuyer(other.id)];
    await creditDaily(kit.db);
    const ids: string[] = [];
    for (const buyer of buyers) ids.push(await cashoutAll(buyer));
    expect(await Promise.all(buyers.map(async (u) => (await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: ids[buyers.indexOf(u)]! } })).amountUsd.toFixed(2)))).toEqual(['200.00', '200.00', '200.00', '200.00']);
    const [first, second, third, fromOther] = ids as [string, string, string, string];
    const [ann, ben] = [await kit.createUser({ isAdmin: true }), await kit.createUser({ isAdmin: true })];
    expect((await markPaid(ann, first, 40)).status).toBe(202);
    expect((await markPaid(ben, second, 41)).status).toBe(202);
    // Each admin has paid $200 alone, but $600 of Penny Package's credit would have left in a day.
    const refused = await markPaid(ben, third, 42);
    expect(refused.status).toBe(409);
    expect(refused.body.approvalRequired).toBe(true);
    expect(refused.body.message).toMatch(/^This payout \(with the cashouts of the last 24 hours paid from the daily credit of 'Penny Package'\) is worth \$600\.00, more than the \$500\.00/);
    const list = ((await (await kit.as(carol)).get('/api/admin/cashouts?status=REQUESTED,NOTIFIED')).body as CashoutJson[]);
    expect(list.find((x) => x._id === third)?.approval.needed).toBe(true);
    expect(list.find((x) => x._id === fromOther)?.approval.needed).toBe(false);
    // Another package's credit is counted on its own.
    expect((await markPaid(ben, fromOther, 43)).status).toBe(202);
    const sources = await kit.db.cashoutSource.findMany({ where: { cashoutId: { in: ids } }, orderBy: { createdAt: 'asc' } });
    expect(sources.map((s) => [s.cashoutId, s.productId, s.amountUsd.toFixed(2)])).toEqual([[first, penny.id, '200.00'], [second, penny.id, '200.00'], [fromOther, other.id, '200.00']]);
  });

  it("credit given back (a cashout cancelled by its link, or rejected) is counted from its package again when cashed out anew", async () => {
    const penny = await createProduct(kit.db, { name: 'Again Package', image: '/images/p.svg', description: 'd', price: new Prisma.Decimal('0.01'), dailyCredit: new Prisma.Decimal('200.00'), durationDays: 30 });
    const buyers = [await packageBuyer(penny.id), await packageBuyer(penny.id), await packageBuyer(penny.id), await packageBuyer(penny.id)];
    await creditDaily(kit.db);
    const [ann, ben, cy, dee] = [await kit.createUser({ isAdmin: true }), await kit.createUser({ isAdmin: true }), await kit.createUser({ isAdmin: true }), await kit.createUser({ isAdmin: true })];
    expect((await markPaid(ann, await cashoutAll(buyers[0]!), 50)).status).toBe(202);
    expect((await markPaid(ben, await cashoutAll(buyers[1]!), 51)).status).toBe(202);
    // The third cashes out to a wallet new to the account, held, and cancels it by the e-mail's link: the $200 comes back.
    const t = buyers[2]!;
    const held = await cashoutAll(t);
    await kit.db.cashoutRequest.update({ where: { id: held }, data: { status: 'HELD', holdUntil: new Date(Date.now() + 3600_000) } });
    const link = await cancelLinkForMail(kit.db, kit.env.runtime.config, held);
    expect((await request(kit.app).post('/api/users/cashout/cancel').send({ token: link!.token })).body).toMatchObject({ cancelled: 1 });
    const again = await cashoutAll(t, '0x2222222222222222222222222222222222222222');
    const refused = await markPaid(cy, again, 52);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^This payout \(with the cashouts of the last 24 hours paid from the daily credit of 'Again Package'\) is worth \$600\.00/);
    // The fourth: a first cashout, a later one asked for (other money), then the first rejected and its $200 cashed out again.
    const u = buyers[3]!;
    const first = await cashoutAll(u);
    await credit(u, '50.00');
    const later = await cashoutAll(u);
    expect((await (await kit.as(dee)).post(`/api/admin/cashouts/${first}/reject`)).status).toBe(200);
    const third = await cashoutAll(u);
    expect((await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: third } })).amountUsd.toFixed(2)).toBe('200.00');
    const late = await markPaid(cy, third, 53);
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/daily credit of 'Again Package'\) is worth \$600\.00/);
    // The later cashout: its $50 is counted as the package's (the credit the first held was not yet counted: never less than the truth).
    expect((await markPaid(dee, later, 54)).status).toBe(202);
    expect((await kit.db.cashoutSource.findMany({ where: { cashoutId: later } })).map((r) => r.amountUsd.toFixed(2))).toEqual(['50.00']);
  });
});

describe('large refunds', () => {
  async function refundRow(amountUsd: string, walletSource: 'sender' | 'admin', requestedById: string) {
    return kit.db.refund.create({
      data: { source: 'TRANSFER', wallet: WALLET, walletSource, amount: new Prisma.Decimal('100000000000000000'), amountUsd: new Prisma.Decimal(amountUsd), requestedById },
    });
  }
  const audit = (admin: TestUser) => ({ actor: { id: admin.id, email: admin.email }, ip: null, userAgent: null });
  const ask = (admin: TestUser, refundId: string) => kit.db.$transaction((tx) => askRefundApprovals(tx, kit.env.config, audit(admin), [refundId], '3000.00000000'));

  it('wait for a second admin when one creation (or an admin\'s refunds to wallets of their choosing within 24 hours) is worth more than the threshold', async () => {
    const small = await refundRow('200.00', 'sender', alice.id);
    expect(await ask(alice, small.id)).toEqual([]);
    const paidSmall = await (await kit.as(alice)).post(`/api/admin/refunds/${small.id}/paid`).send({ payoutTxHash: HASH(10) });
    expect(paidSmall.status).toBe(202);

    // Three refunds the admin directed to a wallet they named: the third takes the day past $500.
    for (let i = 0; i < 2; i++) {
      const named = await refundRow('200.00', 'admin', carol.id);
      expect(await ask(carol, named.id)).toEqual([]);
    }
    const third = await refundRow('200.00', 'admin', carol.id);
    const asked = await ask(carol, third.id);
    expect(asked).toHaveLength(1);
    const paid = await (await kit.as(carol)).post(`/api/admin/refunds/${third.id}/paid`).send({ payoutTxHash: HASH(11) });
    expect(paid.status).toBe(409);
    expect(paid.body.approvalRequired).toBe(true);
    expect((await approve(carol, asked[0]!.id)).status).toBe(403);
    expect((await approve(alice, asked[0]!.id)).status).toBe(200);
    expect((await (await kit.as(carol)).post(`/api/admin/refunds/${third.id}/paid`).send({ payoutTxHash: HASH(11) })).status).toBe(202);
  });

  it('a refund request refuses a reason that is not plain text before creating anything', async () => {
    const as = await kit.as(alice);
    const bad = 'Refund \u202e05 DSU';
    const byTransfer = await as.post(`/api/admin/payments/${randomUUID()}/refund`).send({ approvalReason: bad });
    const byOrder = await as.post('/api/admin/refunds').send({ orderId: randomUUID(), approvalReason: 'x'.repeat(501) });
    expect([byTransfer.status, byTransfer.body.message]).toEqual([400, 'Approval reason must be plain text (no control or invisible formatting characters)']);
    expect([byOrder.status, byOrder.body.message]).toEqual([400, 'Approval reason must be at most 500 characters']);
  });

  it('the admin who created a refund does not approve it, whoever asked; an approval holds only for the wallet it was given for', async () => {
    const refund = await refundRow('900.00', 'admin', bob.id);
    const [asked] = await ask(bob, refund.id);
    expect((await reject(alice, asked!.id)).status).toBe(200);
    // Alice asks again: Bob created the refund, so Bob still may not approve it.
    const again = await (await kit.as(alice)).post('/api/admin/approvals').send({ kind: 'refund', id: refund.id, reason: REASON });
    expect(again.body.wallet).toBe(WALLET);
    expect((await approve(bob, again.body._id)).status).toBe(403);
    expect((await approve(carol, again.body._id)).status).toBe(200);
    // Its wallet changes afterwards (as a sender's signed claim would): the approval no longer pays it.
    await kit.db.refund.update({ where: { id: refund.id }, data: { wallet: '0x2222222222222222222222222222222222222222' } });
    const paid = await (await kit.as(alice)).post(`/api/admin/refunds/${refund.id}/paid`).send({ payoutTxHash: HASH(12) });
    expect(paid.status).toBe(409);
    expect(paid.body.approvalRequired).toBe(true);
  });
});

describe('admin rights', () => {
  it('an edit held for a second admin carries the reason its admin gave in the form; an edit that goes through keeps none', async () => {
    const user = await kit.createUser();
    const loaded = await balances(user);
    const edit = (body: Record<string, unknown>) => kit.as(alice).then((as) => as.put(`/api/users/${user.id}`).send({
      name: user.name, email: user.email, isAdmin: false, activeBalance: loaded.active, passiveBalance: loaded.passive, loadedActiveBalance: loaded.active, loadedPassiveBalance: loaded.passive, ...body,
    }));
    const long = await edit({ activeBalance: '900.00', approvalReason: 'x'.repeat(501) });
    expect({ status: long.status, message: long.body.message }).toEqual({ status: 400, message: 'Approval reason must be at most 500 characters' });
    const held = await edit({ activeBalance: '900.00', approvalReason: '  Goodwill for the failed order ORD-12  ' });
    expect(held.status).toBe(202);
    const grant = await edit({ isAdmin: true, approvalReason: 'Runs the night shift' });
    expect(grant.status).toBe(202);
    const pending = (await (await kit.as(bob)).get('/api/admin/approvals?status=PENDING')).body as ApprovalJson[];
    expect(pending.find((a) => a._id === (held.body as UserJson).pendingApproval!._id)?.reason).toBe('Goodwill for the failed order ORD-12');
    expect(pending.find((a) => a._id === grant.body.pendingAdminGrant._id)?.reason).toBe('Runs the night shift');
    // No reason given: none kept (an empty field is none).
    const plain = await edit({ isAdmin: false, activeBalance: '900.00', approvalReason: '' });
    expect(plain.status).toBe(202);
    expect((await kit.db.approval.findUniqueOrThrow({ where: { id: (plain.body as UserJson).pendingApproval!._id } })).reason).toBeNull();
    for (const id of [(held.body as UserJson).pendingApproval!._id, grant.body.pendingAdminGrant._id, (plain.body as UserJson).pendingApproval!._id]) {
      expect((await withdraw(alice, id)).status).toBe(200);
    }
  });

  it('an admin making a user an admin waits for a second admin; the rest of the edit is saved', async () => {
    const user = await kit.createUser();
    const loaded = await balances(user);
    const res = await (await kit.as(alice)).put(`/api/users/${user.id}`).send({
      name: 'Renamed', email: user.email, isAdmin: true, activeBalance: loaded.active, passiveBalance: loaded.passive, loadedActiveBalance: loaded.active, loadedPassiveBalance: loaded.passive,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: 'Renamed', isAdmin: false, pendingAdminGrant: { _id: expect.any(String) } });
    const id = res.body.pendingAdminGrant._id as string;
    expect((await approve(alice, id)).status).toBe(403);
    expect((await (await kit.as(user)).get('/api/admin/approvals')).status).toBe(403);
    expect((await approve(bob, id)).body).toMatchObject({ kind: 'ADMIN_GRANT', status: 'APPROVED' });
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).isAdmin).toBe(true);
  });

  it('an operator gives the shop its second admin from the shell, audited', async () => {
    const user = await kit.createUser();
    expect(await grantAdminFromShell(kit.db, user.email.toUpperCase())).toEqual({ id: user.id, already: false });
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: user.id } })).isAdmin).toBe(true);
    expect(await kit.db.auditEntry.findFirst({ where: { subjectId: user.id, action: 'user.update' } })).toMatchObject({ actorId: null, userAgent: 'npm run admin:grant', after: { isAdmin: true } });
    await expect(grantAdminFromShell(kit.db, 'nobody@example.com')).rejects.toThrow('No user has the e-mail nobody@example.com');
  });
});

describe('withdrawing and rejecting', () => {
  it('only the requester withdraws; another admin rejects only with a second factor given in the last 10 minutes, audited', async () => {
    // Erin has a second factor on (as every admin of a production shop).
    const erin = await kit.createUser({ isAdmin: true });
    await kit.db.user.update({ where: { id: erin.id }, data: { totpEnabledAt: new Date() } });
    const held = ((await editActive(alice, await kit.createUser(), '700.00')).body as UserJson).pendingApproval!._id;
    const state = async (id: string) => (await kit.db.approval.findUniqueOrThrow({ where: { id } })).status;

    // Another admin cannot withdraw it, and rejecting it asks for a fresh second factor first.
    const notTheirs = await withdraw(erin, held);
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.message).toBe('Only the admin who asked can withdraw this request.');
    const stale = await reject(erin, held);
    expect(stale.status).toBe(403);
    expect(stale.body.stepUpRequired).toBe(true);
    expect(await state(held)).toBe('PENDING');
    const rejected = await (await kit.as(erin, { stepUp: true })).post(`/api/admin/approvals/${held}/reject`);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'REJECTED', decidedBy: { _id: erin.id } });
    expect(await kit.db.auditEntry.findFirst({ where: { action: 'approval.rejected', actorId: erin.id }, orderBy: { seq: 'desc' } })).toMatchObject({ before: { approval: held } });

    // The requester withdraws their own; rejecting it is for the other admin.
    const mine = ((await editActive(alice, await kit.createUser(), '800.00')).body as UserJson).pendingApproval!._id;
    const own = await reject(alice, mine);
    expect(own.status).toBe(403);
    expect(own.body.message).toBe('This is your own request: withdraw it instead.');
    const withdrawn = await withdraw(alice, mine);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ status: 'REJECTED', decidedBy: { _id: alice.id } });
    expect(await kit.db.auditEntry.findFirst({ where: { action: 'approval.withdrawn', actorId: alice.id }, orderBy: { seq: 'desc' } })).toMatchObject({ before: { approval: mine } });
    expect((await withdraw(alice, mine)).status).toBe(409);
  });
});

describe('who may', () => {
  it('a non-admin reads no approvals and decides none', async () => {
    const user = await kit.createUser();
    const as = await kit.as(user);
    expect((await as.get('/api/admin/approvals')).status).toBe(403);
    const held = (await editActive(alice, await kit.createUser(), '999.00')).body as UserJson;
    expect((await as.post(`/api/admin/approvals/${held.pendingApproval!._id}/approve`)).status).toBe(403);
    expect((await as.post('/api/admin/approvals').send({ kind: 'cashout', id: held.pendingApproval!._id, reason: REASON })).status).toBe(403);
  });

  it('approving needs a second factor in the last 10 minutes from an admin who has one', async () => {
    const dave = await kit.createUser({ isAdmin: true });
    const as = await kit.as(dave);
    const secret = (await as.post('/api/users/2fa/totp').send({ password: dave.password })).body.secret as string;
    expect((await as.post('/api/users/2fa/totp/confirm').send({ code: await generate({ secret }) })).status).toBe(200);
    const held = (await editActive(alice, await kit.createUser(), '950.00')).body as UserJson;
    // A fresh session of Dave's: no second factor given in it yet.
    const res = await (await kit.as(dave)).post(`/api/admin/approvals/${held.pendingApproval!._id}/approve`);
    expect(res.status).toBe(403);
    expect(res.body.stepUpRequired).toBe(true);
    expect((await kit.db.approval.findUniqueOrThrow({ where: { id: held.pendingApproval!._id } })).status).toBe('PENDING');
  });
});
