import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Address } from 'viem';
import { z } from 'zod';
import { Prisma } from '@shop/core';
import { depositsSummaryJson, depositSweepJson } from '@shop/core/contract';
import { writeSweeperStatus } from '@shop/core/deposit-sweeper/sweeper-status';
import { anvilDriver, ANVIL_ACCOUNTS } from '../../../../scripts/testing/chain.ts';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

/**
 * The operator's view of the deposit addresses: what waits to be swept (in ETH and USD),
 * what the sweeps moved and cost, the sweeper's state, the sweeps themselves, and the
 * same figures in /metrics. Deposits are sent on anvil and recorded by hand, so the books
 * the kit proves at close hold.
 */
let kit: ApiTestKit;
let admin: TestUser;
let buyer: TestUser;
let chain: ReturnType<typeof anvilDriver>;

const D = (v: bigint) => new Prisma.Decimal(v.toString());
const MILLI = 10n ** 15n;
const GWEI = 10n ** 9n;
const HOUR = 3_600_000;
const newAddress = () => `0x${randomBytes(20).toString('hex')}` as Address;
const hash = () => `0x${randomBytes(32).toString('hex')}`;

async function deposit(to: Address, wei: bigint, status: 'UNRESOLVED' | 'REJECTED' = 'UNRESOLVED') {
  const tx = await chain.sendAndWait(ANVIL_ACCOUNTS[0], to, wei);
  const receipt = await chain.wallet.getTransactionReceipt({ hash: tx });
  return kit.db.payment.create({ data: { txHash: tx.toLowerCase(), depositAddress: to, source: 'INDEXED', status, amount: D(wei), blockNumber: receipt.blockNumber, blockHash: receipt.blockHash } });
}

/** A sweep sent `hoursAgo`; a confirmed one at a real block, its one address's deposit marked swept. */
async function sweep(hoursAgo: number, status: 'SENT' | 'CONFIRMED' | 'FAILED', wei: bigint, feeWei: bigint | null, reason: string | null = null) {
  const address = newAddress();
  const mined = status === 'SENT' ? null : await chain.wallet.getTransactionReceipt({ hash: await chain.sendAndWait(ANVIL_ACCOUNTS[1], newAddress(), 1n) });
  const s = await kit.db.depositSweep.create({
    data: {
      txHash: mined?.transactionHash.toLowerCase() ?? hash(),
      fromAddress: ANVIL_ACCOUNTS[1].toLowerCase(),
      nonce: 0,
      status,
      gasLimit: 100_000n,
      maxFeePerGasWei: D(20n * GWEI),
      expectedWei: D(wei),
      sweptWei: status === 'CONFIRMED' ? D(wei) : null,
      feeWei: feeWei === null ? null : D(feeWei),
      gasUsed: feeWei === null ? null : 60_000n,
      blockNumber: mined?.blockNumber ?? null,
      blockHash: mined?.blockHash ?? null,
      reason,
      createdAt: new Date(Date.now() - hoursAgo * HOUR),
      items: { create: [{ address, expectedWei: D(wei), sweptWei: status === 'CONFIRMED' ? D(wei) : null }] },
    },
  });
  if (status === 'CONFIRMED') {
    await kit.db.payment.create({ data: { txHash: hash(), depositAddress: address, sweepId: s.id, source: 'INDEXED', status: 'UNRESOLVED', amount: D(wei), blockNumber: 1n, blockHash: hash() } });
  }
  return s;
}

beforeAll(async () => {
  kit = await createApiTestKit({ chain: true, ethUsd: '3000' });
  chain = anvilDriver(kit.env.anvil!.rpcUrl);
  admin = await kit.createUser({ name: 'Ada Admin', isAdmin: true });
  buyer = await kit.createUser({ name: 'Bo Buyer' });
});
afterAll(async () => {
  await kit?.close();
});

describe('GET /api/admin/deposits', () => {
  it('is for admins only', async () => {
    expect((await request(kit.app).get('/api/admin/deposits')).status).toBe(401);
    expect((await (await kit.as(buyer)).get('/api/admin/deposits')).status).toBe(403);
    expect((await (await kit.as(buyer)).get('/api/admin/deposits/sweeps')).status).toBe(403);
  });

  it('says nothing waits and nothing was swept in a shop without deposits, and that the sweeper is off without a gas wallet', async () => {
    const res = await (await kit.as(admin)).get('/api/admin/deposits');
    expect(res.status).toBe(200);
    const body = depositsSummaryJson.parse(res.body);
    const none = { sweeps: 0, swept: { wei: '0', eth: '0.000000' }, gas: { wei: '0', eth: '0.000000' } };
    expect(body).toMatchObject({ unswept: { wei: '0', eth: '0.000000', usd: 0, addresses: 0 }, last24h: none, last30d: none, sweepsWaiting: 0 });
    expect(body.sweeper).toMatchObject({ state: 'off', reason: expect.stringContaining('no gas wallet') });
  });

  it('adds up what waits (ETH and USD at the current price), what was swept and its gas by period, the sweeps waiting, and why the sweeper waits', async () => {
    const a = newAddress();
    await deposit(a, 10n * MILLI);
    await deposit(a, 5n * MILLI);
    await deposit(newAddress(), 15n * MILLI);
    await deposit(newAddress(), 7n * MILLI, 'REJECTED'); // no value reached the shop: never counted
    await sweep(2, 'CONFIRMED', 100n * MILLI, 60_000n * 20n * GWEI);
    await sweep(5, 'FAILED', 50n * MILLI, 30_000n * 20n * GWEI, 'Reverted on chain'); // reverted: gas paid, nothing swept
    await sweep(24 * 10, 'CONFIRMED', 200n * MILLI, 60_000n * 10n * GWEI);
    await sweep(24 * 40, 'CONFIRMED', 999n * MILLI, 60_000n * 10n * GWEI); // older than 30 days
    await sweep(0.1, 'SENT', 30n * MILLI, null);
    await writeSweeperStatus({ ...kit.env.runtime }, 'waiting', 'The gas price (80 gwei) is above SWEEP_MAX_FEE_GWEI (50)');

    const body = depositsSummaryJson.parse((await (await kit.as(admin)).get('/api/admin/deposits')).body);
    expect(body.unswept).toEqual({ wei: (30n * MILLI).toString(), eth: '0.030000', usd: 90, addresses: 2 });
    expect(body.last24h).toEqual({ sweeps: 3, swept: { wei: (100n * MILLI).toString(), eth: '0.100000' }, gas: { wei: (90_000n * 20n * GWEI).toString(), eth: '0.001800' } });
    expect(body.last30d).toEqual({
      sweeps: 4,
      swept: { wei: (300n * MILLI).toString(), eth: '0.300000' },
      gas: { wei: (90_000n * 20n * GWEI + 60_000n * 10n * GWEI).toString(), eth: '0.002400' },
    });
    expect(body.sweepsWaiting).toBe(1);
    expect(body.sweeper).toEqual({ state: 'waiting', reason: 'The gas price (80 gwei) is above SWEEP_MAX_FEE_GWEI (50)', at: expect.any(String) });

    // The same figures for the operators' dashboards.
    const metrics = (await request(kit.app).get('/metrics')).text;
    expect(metrics).toMatch(new RegExp(`^shop_deposits_unswept_wei ${30n * MILLI}$`, 'm'));
    expect(metrics).toMatch(/^shop_deposit_sweeps_pending 1$/m);
    expect(metrics).toMatch(new RegExp(`^shop_deposit_sweep_gas_wei_24h ${90_000n * 20n * GWEI}$`, 'm'));
    expect(metrics).toMatch(/^shop_deposit_sweeper_waiting 1$/m);
    expect(metrics).not.toContain('SWEEP_MAX_FEE_GWEI'); // the reason is for the admin page and the log

    await writeSweeperStatus({ ...kit.env.runtime }, 'idle', null);
    expect((await request(kit.app).get('/metrics')).text).toMatch(/^shop_deposit_sweeper_waiting 0$/m);
  });
});

describe('GET /api/admin/deposits/sweeps', () => {
  it('lists the sweeps newest first, a page at a time, with their addresses counted, what they moved and cost, and why one failed', async () => {
    const asAdmin = await kit.as(admin);
    const first = await asAdmin.get('/api/admin/deposits/sweeps?limit=2');
    expect(first.status).toBe(200);
    const page1 = z.array(depositSweepJson).parse(first.body);
    expect(page1.map((s) => s.status)).toEqual(['SENT', 'CONFIRMED']);
    expect(page1[0]).toMatchObject({ items: 1, expectedWei: (30n * MILLI).toString(), sweptWei: null, feeWei: null, blockNumber: null, reason: null });
    expect(page1[1]).toMatchObject({ items: 1, sweptWei: (100n * MILLI).toString(), feeWei: (60_000n * 20n * GWEI).toString(), blockNumber: expect.stringMatching(/^\d+$/) });

    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link ?? '')?.[1];
    expect(next).toMatch(/^\/api\/admin\/deposits\/sweeps\?limit=2&cursor=/);
    const page2 = z.array(depositSweepJson).parse((await asAdmin.get(next!)).body);
    expect(page2.map((s) => [s.status, s.reason])).toEqual([['FAILED', 'Reverted on chain'], ['CONFIRMED', null]]);
    const rest = (await asAdmin.get('/api/admin/deposits/sweeps')).body as unknown[];
    expect(rest).toHaveLength(5);
    expect((await asAdmin.get('/api/admin/deposits/sweeps?cursor=nonsense!')).status).toBe(400);
  });
});

describe('POST /api/admin/deposits/sweep', () => {
  it("queues one run of the sweeper now, for admins only, recorded in the audit log; asked again before it ran, it says one is queued", async () => {
    expect((await (await kit.as(buyer)).post('/api/admin/deposits/sweep')).status).toBe(403);
    const first = await (await kit.as(admin)).post('/api/admin/deposits/sweep');
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ message: 'The sweeper will run now', queued: true });
    expect(await kit.env.runtime.queues['deposit-sweep'].getJob('deposit-sweep-now')).toBeTruthy();
    const again = await (await kit.as(admin)).post('/api/admin/deposits/sweep');
    expect(again.body).toEqual({ message: 'A sweeper run is already queued', queued: false });
    expect(await kit.db.auditEntry.count({ where: { action: 'deposits.sweep', actorId: admin.id } })).toBe(1);
  });
});
