import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, custom, encodeFunctionData, parseAbi, type Address, type Hash } from 'viem';
import { mainnet } from 'viem/chains';
import { applyLedger, createChainClient, reconcile, requestPayoutCheck, verifyPayout, type PayoutVerdict, type Tracer } from '@shop/core';
import { refundWalletMessage } from '@shop/core/contract';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { REPO_ROOT } from '../../../scripts/lib/paths.ts';
import { setEthUsdPrice } from '../../../scripts/lib/price-feed-mock.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { deploySmartWallet } from '../../../scripts/testing/smart-wallet.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Money out at its edges: each test is a finding of a hostile review of refunds, payout
 * checks and webhooks, and failed on the code before its fix.
 */
/** The check a refused payout hands on (the replacement's), from the verdict's effects. */
const nextCheck = (verdict: PayoutVerdict): string => {
  const effect = verdict.state === 'refused' ? verdict.effects.find((e) => e.kind === 'payout-check') : undefined;
  if (effect?.kind !== 'payout-check') throw new Error(`no replacement check in ${JSON.stringify(verdict)}`);
  return effect.checkId;
};
const payer = ANVIL_ACCOUNTS[3];
const treasury = ANVIL_ACCOUNTS[5];
const stranger = ANVIL_ACCOUNTS[4];
const target = ANVIL_ACCOUNTS[6];
const FINNEY = 10n ** 15n;

const pay = (kit: PaymentKit, from: Address, to: Address, value: bigint): Promise<Hash> => kit.chain.sendAndWait(from, to, value);
async function cashoutOf(kit: PaymentKit, name: string, wallet: Address = ANVIL_ACCOUNTS[2]) {
  const user = await kit.createUser({ name });
  await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '30.00', kind: 'DAILY_CREDIT', idempotencyKey: `seed:${user.id}:${Date.now()}` }]);
  expect((await (await kit.as(user)).post('/api/users/cashout').send({ wallet })).status).toBe(200);
  return { user, cashout: await kit.db.cashoutRequest.findFirstOrThrow({ where: { userId: user.id }, orderBy: { createdAt: 'desc' } }) };
}

describe('refunds and payouts at the edges', () => {
  let kit: PaymentKit;
  let admin: TestUser;
  let buyer: TestUser;
  beforeAll(async () => {
    kit = await createPaymentKit({ env: { PAYOUT_RECHECK_MS: '200', PAYOUT_TOLERANCE_BPS: '50', PRICE_CACHE_SECONDS: '0' } });
    admin = await kit.createUser({ isAdmin: true });
    buyer = await kit.createUser();
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('a second overpayment at another price is refunded with the ETH it brought, not re-priced', async () => {
    const order = await kit.placeOrder(buyer);
    const first = await pay(kit, payer, kit.receiving, order.amountWei + 5n * FINNEY);
    await kit.report(buyer, order.id, first);
    await kit.waitForStatus(order.id, 'PAID');
    const asAdmin = await kit.as(admin);
    expect((await asAdmin.post('/api/admin/refunds').send({ orderId: order.id })).status).toBe(201);
    await setEthUsdPrice(kit.env.anvil!.rpcUrl, '6000');
    try {
      await kit.lapse(order.id);
      const second = await pay(kit, payer, kit.receiving, 5n * FINNEY + (order.amountWei % 10n ** 12n));
      await kit.report(buyer, order.id, second);
      const counted = await kit.waitForPayment(second, ['COUNTED']);
      expect(counted.usdValue?.toFixed(2)).toBe('30.00');
      const refund = await asAdmin.post('/api/admin/refunds').send({ orderId: order.id });
      expect(refund.status).toBe(201);
      expect(refund.body).toEqual([expect.objectContaining({ amountWei: counted.amount!.toFixed(0), amountUsd: 30 })]);
    } finally {
      await setEthUsdPrice(kit.env.anvil!.rpcUrl, '3000');
    }
  });

  it('a refund worth more than APPROVAL_THRESHOLD_USD is born waiting for a second admin: not payable until another admin approves it', async () => {
    // 0.25 ETH at $3000 no order took: a $750 refund of a transfer (valued at today's price).
    const big = await pay(kit, payer, kit.receiving, 250n * FINNEY);
    await kit.runIndexer();
    const payment = await kit.waitForPayment(big, ['UNRESOLVED']);
    const created = await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({ wallet: target, approvalReason: ' Sent twice by mistake, per the buyer ' });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Refund requested. A second admin must approve it before it is paid.');
    const refundId = created.body.refundId as string;
    const approval = await kit.db.approval.findFirstOrThrow({ where: { subjectId: refundId } });
    // The reason the admin gave in the refund form is what the approver reads.
    expect(approval).toMatchObject({ kind: 'PAYOUT', status: 'PENDING', requestedById: admin.id, reason: 'Sent twice by mistake, per the buyer' });
    expect(approval.amountUsd.toFixed(2)).toBe('750.00');

    const sent = await pay(kit, treasury, target, 250n * FINNEY);
    const refused = await kit.markPayoutPaid(admin, 'refunds', refundId, sent);
    expect(refused.status).toBe(409);
    expect(refused.body.approvalRequired).toBe(true);
    expect((await (await kit.as(admin)).post(`/api/admin/approvals/${approval.id}/approve`)).status).toBe(403);
    const second = await kit.createUser({ isAdmin: true });
    expect((await (await kit.as(second)).post(`/api/admin/approvals/${approval.id}/approve`)).status).toBe(200);
    expect((await kit.markPayoutPaid(admin, 'refunds', refundId, sent)).status).toBe(202);
    expect((await kit.payoutVerdict('refund', refundId)).status).toBe('ACCEPTED');
  });

  it("a payout sent before the sender redirected the refund still pays it; once a hash is given the wallet stays", async () => {
    const round = await pay(kit, payer, kit.receiving, 7n * FINNEY);
    await kit.runIndexer();
    const payment = await kit.waitForPayment(round, ['UNRESOLVED']);
    const refundId = (await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({})).body.refundId as string;
    const sent = await pay(kit, treasury, payer, 7n * FINNEY);
    const signature = await kit.chain.wallet.signMessage({ account: payer, message: refundWalletMessage(refundId, target) });
    expect((await (await kit.as(buyer)).put(`/api/refunds/${refundId}/wallet`).send({ wallet: target, signature })).status).toBe(200);
    expect((await kit.markPayoutPaid(admin, 'refunds', refundId, sent)).status).toBe(202);
    // It reached a wallet the refund was directed to: paid, and not paid again.
    expect((await kit.payoutVerdict('refund', refundId)).status).toBe('ACCEPTED');
    const back = await kit.chain.wallet.signMessage({ account: payer, message: refundWalletMessage(refundId, stranger) });
    expect((await (await kit.as(buyer)).put(`/api/refunds/${refundId}/wallet`).send({ wallet: stranger, signature: back })).status).toBe(409);
  });

  it('a payout over the tolerance pays the cashout (noted); a short one counts toward the rest and the cashout can no longer be rejected', async () => {
    const over = await cashoutOf(kit, 'Over Olga');
    const sent = await pay(kit, treasury, ANVIL_ACCOUNTS[2], (10n ** 16n * 101n) / 100n);
    await kit.markPayoutPaid(admin, 'cashouts', over.cashout.id, sent);
    expect(await kit.payoutVerdict('cashout', over.cashout.id)).toMatchObject({ status: 'ACCEPTED', reason: expect.stringMatching(/more than the 0.010000 ETH due/) });
    expect((await (await kit.as(admin)).post(`/api/admin/cashouts/${over.cashout.id}/reject`)).status).toBe(409);

    const short = await cashoutOf(kit, 'Short Sid');
    const half = await pay(kit, treasury, ANVIL_ACCOUNTS[2], 5n * FINNEY);
    await kit.markPayoutPaid(admin, 'cashouts', short.cashout.id, half);
    expect((await kit.payoutVerdict('cashout', short.cashout.id)).reason).toMatch(/short of the 0.010000 ETH due/);
    const reject = await (await kit.as(admin)).post(`/api/admin/cashouts/${short.cashout.id}/reject`);
    expect(reject.status).toBe(409);
    expect((await kit.db.user.findUniqueOrThrow({ where: { id: short.user.id } })).activeBalance.toFixed(2)).toBe('0.00');
    // The same short hash is not counted twice.
    expect((await kit.markPayoutPaid(admin, 'cashouts', short.cashout.id, half)).status).toBe(409);
    const rest = await pay(kit, treasury, ANVIL_ACCOUNTS[2], 5n * FINNEY);
    await kit.markPayoutPaid(admin, 'cashouts', short.cashout.id, rest);
    expect((await kit.payoutVerdict('cashout', short.cashout.id)).status).toBe('ACCEPTED');
  });

  it('a hash from before payouts were verified, or mined before the request, pays no new payout', async () => {
    const legacy = await cashoutOf(kit, 'Legacy Lou', ANVIL_ACCOUNTS[0]);
    const hash = await pay(kit, treasury, ANVIL_ACCOUNTS[0], 10n ** 16n);
    // What the previous release wrote, then what the migration does with it.
    await kit.db.cashoutRequest.update({ where: { id: legacy.cashout.id }, data: { status: 'PAID', payoutTxHash: hash } });
    const dir = readdirSync(path.join(REPO_ROOT, 'prisma/migrations')).find((d) => d.endsWith('_payouts_refunds_webhooks'))!;
    const sql = readFileSync(path.join(REPO_ROOT, 'prisma/migrations', dir, 'migration.sql'), 'utf8');
    // Its columns as a later migration renamed them (assets_and_chains: amounts in the asset's smallest units).
    const backfill = sql.slice(sql.indexOf('INSERT INTO "PayoutCheck"')).replaceAll('"expectedWei"', '"expectedAmount"').replaceAll('"deliveredWei"', '"deliveredAmount"');
    await kit.db.$executeRawUnsafe(backfill);
    expect((await reconcile(kit.workerRuntime)).discrepancies.filter((d) => d.ids.cashoutId === legacy.cashout.id)).toEqual([]);
    const fresh = await cashoutOf(kit, 'Legacy Lou again', ANVIL_ACCOUNTS[0]);
    expect((await kit.markPayoutPaid(admin, 'cashouts', fresh.cashout.id, hash)).status).toBe(409);
    // A transaction to the same wallet mined before the request existed.
    await kit.db.payoutCheck.deleteMany({ where: { cashoutId: legacy.cashout.id } });
    await kit.db.cashoutRequest.update({ where: { id: fresh.cashout.id }, data: { createdAt: new Date(Date.now() + 10 * 60_000) } });
    await kit.markPayoutPaid(admin, 'cashouts', fresh.cashout.id, hash);
    expect((await kit.payoutVerdict('cashout', fresh.cashout.id)).reason).toBe('It was mined before this payout was requested: it cannot be its payout');
    await kit.db.payoutCheck.create({ data: { txHash: hash.toLowerCase(), cashoutId: legacy.cashout.id, wallet: ANVIL_ACCOUNTS[0], expectedAmount: '10000000000000000', status: 'ACCEPTED' } });
    await kit.db.cashoutRequest.update({ where: { id: fresh.cashout.id }, data: { createdAt: new Date() } });
    const ok = await pay(kit, treasury, ANVIL_ACCOUNTS[0], 10n ** 16n);
    await kit.markPayoutPaid(admin, 'cashouts', fresh.cashout.id, ok);
    expect((await kit.payoutVerdict('cashout', fresh.cashout.id)).status).toBe('ACCEPTED');
  });

  it("reporting a stranger's untagged transfer does not make its refund the reporter's", async () => {
    const mallory = await kit.createUser({ name: 'Mallory' });
    const own = await kit.placeOrder(mallory);
    const theirs = await pay(kit, stranger, kit.receiving, 3n * FINNEY);
    await kit.report(mallory, own.id, theirs);
    const p = await kit.waitForPayment(theirs, ['UNRESOLVED']);
    const created = await (await kit.as(admin)).post(`/api/admin/payments/${p.id}/refund`).send({});
    expect(created.status).toBe(201);
    expect(await kit.db.refund.findUniqueOrThrow({ where: { id: created.body.refundId } })).toMatchObject({ userId: null, orderId: null, wallet: stranger.toLowerCase() });
    expect((await (await kit.as(mallory)).get(`/api/orders/${own.id}`)).body.refunds).toEqual([]);
  });
});

describe('payout transactions that may still land', () => {
  let kit: PaymentKit;
  let admin: TestUser;
  const later = () => new Date(Date.now() + 3 * 3600_000); // past PAYOUT_GIVE_UP_MINUTES (60)
  beforeAll(async () => {
    // Only the treasury pays out: a transfer to a cashout's wallet from anyone else is not a payout.
    kit = await createPaymentKit({ env: { PAYOUT_RECHECK_MS: '200', PAYOUT_ADDRESSES: treasury } });
    admin = await kit.createUser({ isAdmin: true });
  });
  afterAll(async () => {
    await kit?.chain.setAutomine(true);
    await kit?.close();
  });
  const record = async (cashoutId: string, txHash: string) =>
    (await requestPayoutCheck({ db: kit.db, config: kit.env.config, currentPrice: async () => '3000.00000000' }, { kind: 'cashout', id: cashoutId, txHash, actorId: admin.id })).checkId;
  const check = (id: string) => kit.db.payoutCheck.findUniqueOrThrow({ where: { id } });
  const reject = async (cashoutId: string) => (await kit.as(admin)).post(`/api/admin/cashouts/${cashoutId}/reject`);

  it('one seen waiting in the mempool is watched past PAYOUT_GIVE_UP_MINUTES: its cashout can be neither rejected nor paid again, and it pays once mined', async () => {
    const { cashout } = await cashoutOf(kit, 'Patient Pat');
    await kit.chain.setAutomine(false);
    let hash: Hash;
    let checkId: string;
    try {
      hash = await kit.chain.send(treasury, ANVIL_ACCOUNTS[2], 10n ** 16n);
      checkId = await record(cashout.id, hash);
      expect(await verifyPayout(kit.workerRuntime, checkId, later())).toMatchObject({ state: 'wait' });
      expect((await check(checkId)).status).toBe('CHECKING');
      expect((await reject(cashout.id)).status).toBe(409);
      const other = await kit.chain.send(treasury, ANVIL_ACCOUNTS[2], 10n ** 16n);
      expect((await kit.markPayoutPaid(admin, 'cashouts', cashout.id, other)).status).toBe(409);
      await kit.chain.dropAll();
    } finally {
      await kit.chain.setAutomine(true);
    }
    // It lands after all (the sender broadcasts it again).
    const raw = await kit.chain.wallet.sendTransaction({ account: treasury, to: ANVIL_ACCOUNTS[2], value: 10n ** 16n, nonce: Number((await check(checkId)).nonce), chain: null });
    expect(raw.toLowerCase()).toBe(hash.toLowerCase());
    await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(await verifyPayout(kit.workerRuntime, checkId, later())).toMatchObject({ state: 'accepted' });
  });

  it("one sped up (the same nonce under another hash) is followed to its replacement, which pays the cashout once", async () => {
    const { cashout } = await cashoutOf(kit, 'Speedy Sue');
    await kit.chain.setAutomine(false);
    let checkId: string;
    let faster: Hash;
    try {
      const hash = await kit.chain.send(treasury, ANVIL_ACCOUNTS[2], 10n ** 16n, { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n });
      checkId = await record(cashout.id, hash);
      expect(await verifyPayout(kit.workerRuntime, checkId)).toMatchObject({ state: 'wait' });
      const { nonce } = await check(checkId);
      // The wallet's "speed up": the same payment, the same nonce, a higher fee.
      await kit.chain.dropAll();
      faster = await kit.chain.send(treasury, ANVIL_ACCOUNTS[2], 10n ** 16n, { nonce: Number(nonce), maxFeePerGas: 4_000_000_000n, maxPriorityFeePerGas: 2_000_000_000n });
      await kit.chain.mine(1);
    } finally {
      await kit.chain.setAutomine(true);
    }
    const verdict = await verifyPayout(kit.workerRuntime, checkId);
    expect(verdict).toMatchObject({ state: 'refused', reason: expect.stringMatching(new RegExp(`^Replaced by ${faster.toLowerCase()} \\(nonce \\d+ of 0x[0-9a-f]{40}\\): that transaction is checked as this payout instead$`)) });
    const next = nextCheck(verdict);
    expect(await check(next)).toMatchObject({ txHash: faster.toLowerCase(), status: 'CHECKING' });
    // (The worker queues the replacement's check at once; read here directly.)
    expect(await verifyPayout(kit.workerRuntime, next)).toMatchObject({ state: 'accepted' });
    expect(await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).toMatchObject({ status: 'PAID', payoutTxHash: faster.toLowerCase() });
  });

  it('one sent through a contract and then cancelled holds its cashout until an admin withdraws the hold: its operation may still run', async () => {
    const { cashout } = await cashoutOf(kit, 'Multisig Mo');
    const multisig = await deploySmartWallet(kit.env.anvil!.rpcUrl, treasury);
    const execute = encodeFunctionData({ abi: parseAbi(['function execute(address to, uint256 value)']), functionName: 'execute', args: [ANVIL_ACCOUNTS[2], 10n ** 16n] });
    await kit.chain.setAutomine(false);
    let checkId: string;
    try {
      const hash = await kit.chain.wallet.sendTransaction({ account: treasury, to: multisig.address, data: execute, gas: 200_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, chain: null });
      checkId = await record(cashout.id, hash);
      expect(await verifyPayout(kit.workerRuntime, checkId)).toMatchObject({ state: 'wait' });
      const { nonce } = await check(checkId);
      await kit.chain.dropAll();
      await kit.chain.send(treasury, treasury, 0n, { nonce: Number(nonce), maxFeePerGas: 4_000_000_000n, maxPriorityFeePerGas: 2_000_000_000n });
      await kit.chain.mine(1);
    } finally {
      await kit.chain.setAutomine(true);
    }
    const verdict = await verifyPayout(kit.workerRuntime, checkId);
    expect(verdict).toMatchObject({ state: 'refused', reason: expect.stringMatching(/the request stays held until an admin withdraws the hold$/) });
    expect(await verifyPayout(kit.workerRuntime, nextCheck(verdict))).toMatchObject({ state: 'refused' });
    // The multisig's signed operation could still be executed by anyone: neither rejected nor paid again yet.
    const refused = await reject(cashout.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/was sent through a contract whose operation may still run: withdraw its hold once it cannot$/);
    expect((await kit.markPayoutPaid(admin, 'cashouts', cashout.id, `0x${'a7'.repeat(32)}`)).status).toBe(409);
    expect((await (await kit.as(admin)).get('/api/admin/cashouts')).body.find((c: { _id: string }) => c._id === cashout.id).heldBy).toMatch(/^0x/);
    expect((await (await kit.as(admin)).delete(`/api/admin/cashouts/${cashout.id}/paid`)).status).toBe(200);
    expect((await reject(cashout.id)).status).toBe(200);
  });

  it("one no node ever showed is watched until an admin withdraws it; one it has seen cannot be withdrawn", async () => {
    const { cashout } = await cashoutOf(kit, 'Typo Ted');
    const typo = `0x${'e1'.repeat(32)}`;
    expect((await kit.markPayoutPaid(admin, 'cashouts', cashout.id, typo)).status).toBe(202);
    const checkId = (await kit.db.payoutCheck.findFirstOrThrow({ where: { cashoutId: cashout.id } })).id;
    expect(await verifyPayout(kit.workerRuntime, checkId, later())).toMatchObject({ state: 'wait', reason: expect.stringMatching(/^The node has never seen this transaction in 60 minutes/) });
    expect((await reject(cashout.id)).status).toBe(409);
    const asAdmin = await kit.as(admin);
    expect((await asAdmin.delete(`/api/admin/cashouts/${cashout.id}/paid`)).status).toBe(200);
    expect(await check(checkId)).toMatchObject({ status: 'REFUSED', reason: 'Withdrawn by an admin: the node never showed this transaction' });
    // A real one the node has seen is not withdrawn: it may still land.
    await kit.chain.setAutomine(false);
    try {
      const pending = await kit.chain.send(treasury, ANVIL_ACCOUNTS[2], 10n ** 16n);
      expect((await kit.markPayoutPaid(admin, 'cashouts', cashout.id, pending)).status).toBe(202);
      const refused = await asAdmin.delete(`/api/admin/cashouts/${cashout.id}/paid`);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/^The node has seen this transaction \(nonce \d+ of 0x[0-9a-f]{40}\): it may still be mined/);
    } finally {
      await kit.chain.mine(1);
      await kit.chain.setAutomine(true);
    }
    await kit.payoutVerdict('cashout', cashout.id, ['ACCEPTED']);
  });

  it("one dropped for good (its sender's nonce used by another transaction) is refused, and only then can the cashout be rejected", async () => {
    const { cashout } = await cashoutOf(kit, 'Dropped Dan');
    await kit.chain.setAutomine(false);
    let checkId: string;
    try {
      const hash = await kit.chain.send(treasury, ANVIL_ACCOUNTS[2], 10n ** 16n);
      checkId = await record(cashout.id, hash);
      expect(await verifyPayout(kit.workerRuntime, checkId)).toMatchObject({ state: 'wait' });
      const { nonce } = await check(checkId);
      expect(nonce).not.toBeNull();
      // The sender cancels it: the same nonce, to itself, with a higher fee.
      await kit.chain.dropAll();
      await kit.chain.send(treasury, treasury, 0n, { nonce: Number(nonce) });
      await kit.chain.mine(1);
    } finally {
      await kit.chain.setAutomine(true);
    }
    // Replaced by a transaction to the sender itself: followed, and it pays nothing.
    const verdict = await verifyPayout(kit.workerRuntime, checkId);
    expect(verdict).toMatchObject({ state: 'refused', reason: expect.stringMatching(/^Replaced by 0x[0-9a-f]{64}/) });
    expect(await verifyPayout(kit.workerRuntime, nextCheck(verdict))).toMatchObject({ state: 'refused', reason: expect.stringMatching(/^It sent nothing to the requested wallet/) });
    expect((await reject(cashout.id)).status).toBe(200);
  });

  it('a node that keeps failing never refuses a check: it is read again until the node answers', async () => {
    const { cashout } = await cashoutOf(kit, 'Flaky Flo');
    const hash = await pay(kit, treasury, ANVIL_ACCOUNTS[2], 10n ** 16n);
    const checkId = await record(cashout.id, hash);
    const down = createChainClient('http://127.0.0.1:1/v3/secret-key', { retryCount: 0 });
    await expect(verifyPayout({ ...kit.workerRuntime, chain: down }, checkId, later())).rejects.toThrow();
    expect(await check(checkId)).toMatchObject({ status: 'CHECKING' });
    expect((await reject(cashout.id)).status).toBe(409);
    expect(await verifyPayout(kit.workerRuntime, checkId, later())).toMatchObject({ state: 'accepted' });
  });

  it('its sender and nonce are kept the first time the node shows it, even when the next read fails', async () => {
    const { cashout } = await cashoutOf(kit, 'Half-read Hal');
    const hash = await pay(kit, treasury, ANVIL_ACCOUNTS[2], 10n ** 16n);
    const checkId = await record(cashout.id, hash);
    // A node that shows the transaction but fails on its receipt (a rate limit, a timeout).
    const real = kit.workerRuntime.chain;
    const noReceipts = createPublicClient({
      chain: mainnet,
      transport: custom({
        async request({ method, params }) {
          if (method === 'eth_getTransactionReceipt') throw new Error('receipt read failed');
          return real.request({ method, params } as never);
        },
      }),
    });
    await expect(verifyPayout({ ...kit.workerRuntime, chain: noReceipts }, checkId, later())).rejects.toThrow();
    const nonce = BigInt((await real.getTransaction({ hash })).nonce);
    // Kept: were the transaction to vanish, its nonce still proves whether it can be mined (no withdrawal without that proof).
    expect(await check(checkId)).toMatchObject({ status: 'CHECKING', fromAddress: treasury.toLowerCase(), nonce, toAddress: ANVIL_ACCOUNTS[2].toLowerCase() });
    expect(await verifyPayout(kit.workerRuntime, checkId, later())).toMatchObject({ state: 'accepted' });
  });

  it("its hash reported by a buyer as a payment of theirs still pays the cashout: a report proves nothing", async () => {
    const { user, cashout } = await cashoutOf(kit, 'Blocking Bo');
    const hash = await pay(kit, treasury, ANVIL_ACCOUNTS[2], 10n ** 16n);
    // The cashout's owner reports the payout's hash for an order of theirs before the admin marks it.
    const order = await kit.placeOrder(user);
    expect((await kit.report(user, order.id, hash)).status).toBe(202);
    expect((await kit.markPayoutPaid(admin, 'cashouts', cashout.id, hash)).status).toBe(202);
    expect((await kit.payoutVerdict('cashout', cashout.id)).status).toBe('ACCEPTED');
    expect((await reject(cashout.id)).status).toBe(409);
  });

  it('a payout straight to a cashout wallet typed in mixed case is matched without traces', async () => {
    const { cashout } = await cashoutOf(kit, 'Checksum Cat');
    expect(cashout.wallet).toBe(ANVIL_ACCOUNTS[2]); // as the buyer typed it, EIP-55 mixed case
    const hash = await pay(kit, treasury, ANVIL_ACCOUNTS[2], 10n ** 16n);
    const checkId = await record(cashout.id, hash);
    const blind: Tracer = { block: async () => null, blockTo: async () => null, transaction: async () => null };
    expect(await verifyPayout({ ...kit.workerRuntime, tracer: blind }, checkId)).toMatchObject({ state: 'accepted' });
  });

  it("someone else's transfer to the cashout's wallet is not the shop's payout", async () => {
    const { cashout } = await cashoutOf(kit, 'Gifted Gil');
    const gift = await pay(kit, stranger, ANVIL_ACCOUNTS[2], 10n ** 16n);
    const checkId = await record(cashout.id, gift);
    expect(await verifyPayout(kit.workerRuntime, checkId)).toMatchObject({
      state: 'refused',
      reason: "It was not sent from one of the shop's payout addresses (PAYOUT_ADDRESSES): it is not the shop's payout",
    });
    expect((await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).status).not.toBe('PAID');
  });

  it('a multisig payout the node cannot trace stays watched: the ETH may have reached the wallet', async () => {
    const { cashout } = await cashoutOf(kit, 'Safe Sam');
    const multisig = await deploySmartWallet(kit.env.anvil!.rpcUrl, treasury);
    const hash = await multisig.pay(ANVIL_ACCOUNTS[2], 10n ** 16n);
    const checkId = await record(cashout.id, hash);
    const pruned: Tracer = {
      block: async () => null,
      blockTo: async () => null,
      transaction: async () => {
        throw new Error('missing trie node 0xabc (path )');
      },
    };
    expect(await verifyPayout({ ...kit.workerRuntime, tracer: pruned }, checkId, later())).toMatchObject({ state: 'wait', reason: expect.stringMatching(/cannot trace/) });
    expect((await reject(cashout.id)).status).toBe(409);
  });
});

describe('webhooks at the edges', () => {
  let kit: PaymentKit;
  let admin: TestUser;
  let server: Server;
  const received: { type: string; subject: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { cashout?: { id: string } } };
        received.push({ type: body.type, subject: body.data.cashout?.id ?? '' });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    kit = await createPaymentKit({ env: { WEBHOOK_RETRY_BASE_MS: '60000', WEBHOOK_DISPATCH_MS: '100' } });
    await kit.workerRuntime.queues['webhook-dispatch'].upsertJobScheduler('webhook-dispatch', { every: 100 }, { name: 'webhook-dispatch', data: {} });
    admin = await kit.createUser({ isAdmin: true });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    expect((await (await kit.as(admin)).post('/api/admin/webhooks').send({ url })).status).toBe(201);
  });
  afterAll(async () => {
    await kit?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('deleting an order reports its transfers as unresolved', async () => {
    const buyer = await kit.createUser();
    const order = await kit.placeOrder(buyer);
    const half = order.amountWei / 2n;
    const hash = await kit.chain.sendAndWait(payer, kit.receiving, half - (half % 10n ** 12n) + (order.amountWei % 10n ** 12n));
    await kit.report(buyer, order.id, hash);
    await kit.waitForStatus(order.id, 'UNDERPAID');
    expect((await (await kit.as(admin)).delete(`/api/orders/${order.id}/delete`)).status).toBe(200);
    const p = await kit.db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } });
    expect(p.status).toBe('UNRESOLVED');
    expect(await kit.db.webhookEvent.count({ where: { type: 'payment.unresolved', subject: `payment:${p.id}` } })).toBe(1);
  });

  it('a URL that grows past the limit once encoded is a 400', async () => {
    const res = await (await kit.as(admin)).post('/api/admin/webhooks').send({ url: `https://example.com/${'é'.repeat(900)}` });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('URL is too long (2000 characters at most, once encoded)');
  });

  it('an endpoint that is down never holds back the events of another', async () => {
    expect((await (await kit.as(admin)).post('/api/admin/webhooks').send({ url: 'http://127.0.0.1:1/down' })).status).toBe(201);
    const users = await Promise.all(Array.from({ length: 130 }, () => kit.createUser()));
    // 130 cashout subjects, each with its own event, for both endpoints.
    for (const u of users) {
      await applyLedger(kit.db, [{ userId: u.id, account: 'ACTIVE', amount: '25.00', kind: 'DAILY_CREDIT', idempotencyKey: `w:${u.id}` }]);
      expect((await (await kit.as(u)).post('/api/users/cashout').send({ wallet: ANVIL_ACCOUNTS[2] })).status).toBe(200);
    }
    await waitFor('every event at the healthy endpoint', async () => received.filter((r) => r.type === 'cashout.requested').length >= 130);
    // A delivery is marked once its answer is in: the last ones may still be on their way to the database.
    await waitFor('every delivery to the healthy endpoint marked', async () =>
      (await kit.db.webhookDelivery.count({ where: { status: 'PENDING', endpoint: { url: { not: 'http://127.0.0.1:1/down' } } } })) === 0);
  });
});

describe('money out and reorganizations', () => {
  let kit: PaymentKit;
  let admin: TestUser;
  beforeAll(async () => {
    // This test leaves the books broken on purpose (a reorganization deeper than the
    // confirmations took a verified payout and a refunded transfer off the chain): what
    // is tested is that the reconciler reports exactly that.
    kit = await createPaymentKit({ env: { PAYOUT_RECHECK_MS: '200' }, reconcileSkip: ['payout-off-chain', 'refunded-off-chain'] });
    admin = await kit.createUser({ isAdmin: true });
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('a verified payout and a refunded transfer taken off the chain are reported by the reconciler', async () => {
    const { cashout } = await cashoutOf(kit, 'Reorg Rex');
    const round = await pay(kit, stranger, kit.receiving, 4n * FINNEY);
    await kit.runIndexer();
    const payment = await kit.waitForPayment(round, ['UNRESOLVED']);
    const refund = await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({});
    expect(refund.status).toBe(201);
    const payout = await pay(kit, treasury, ANVIL_ACCOUNTS[2], 10n ** 16n);
    await kit.markPayoutPaid(admin, 'cashouts', cashout.id, payout);
    expect((await kit.payoutVerdict('cashout', cashout.id)).status).toBe('ACCEPTED');
    const since = (await kit.chain.wallet.getTransactionReceipt({ hash: round })).blockNumber;
    await kit.chain.reorg(Number((await kit.chain.blockNumber()) - since + 1n));
    await kit.chain.mine(2);
    const found = (await reconcile(kit.workerRuntime)).discrepancies;
    expect(found.filter((d) => d.check === 'payout-off-chain').map((d) => d.ids)).toEqual([{ cashoutId: cashout.id, txHash: payout.toLowerCase() }]);
    expect(found.filter((d) => d.check === 'refunded-off-chain').map((d) => d.ids)).toEqual([{ paymentId: payment.id, txHash: round.toLowerCase() }]);
  });
});
