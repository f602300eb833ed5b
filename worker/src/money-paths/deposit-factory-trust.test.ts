import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIds, jobs, MICRO_ETH_WEI, recoverDepositToken, type SweepRun } from '@shop/core';
import { getAddress, type Address } from 'viem';
import { depositAddressOf } from '../../../core/src/deposits/addresses.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { deployLookAlikeFactory } from '../../../scripts/testing/look-alike-factory.ts';
import { processEnv, startApiProcess, startWorkerProcess, type ShopProcess } from '../../../scripts/testing/processes.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * A look-alike deposit factory configured (DEPOSIT_FACTORY_ADDRESS): it answers receiver(),
 * forwarder() and proxyCodeHash() as the shop's own does, but its forwarder's flush pays a
 * thief while emitting the same Flushed event (scripts/testing/look-alike-factory.sol).
 * The shop compares the code on chain with what DepositFactory.sol deploys for its
 * receiving address (deposits/factory-check.ts), so it hands out none of its addresses,
 * sweeps nothing through it, and says why.
 */
/** Anvil's dev account #8: the gas wallet, signed here (SWEEPER_PRIVATE_KEY). */
const SWEEPER_KEY = '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97';
const sweeper = ANVIL_ACCOUNTS[8];
const thief = ANVIL_ACCOUNTS[7];
const exchange = ANVIL_ACCOUNTS[4];
const payer = ANVIL_ACCOUNTS[5];

let kit: PaymentKit;
let factory: Address;
let buyer: TestUser;
let admin: TestUser;

const balance = (address: Address) => kit.chain.wallet.getBalance({ address });

/** One run of the worker's deposit-sweep job, asked for now; its result. */
async function sweepNow(): Promise<SweepRun> {
  await jobs.sweepDeposits(kit.workerRuntime.queues);
  return waitFor('the deposit-sweep job', async () => {
    const job = await kit.workerRuntime.queues['deposit-sweep'].getJob(jobIds.depositSweep);
    const state = await job?.getState();
    if (state === 'failed') throw new Error(`the deposit-sweep job failed: ${job?.failedReason}`);
    return state === 'completed' ? (job?.returnvalue as SweepRun) : null;
  });
}

beforeAll(async () => {
  kit = await createPaymentKit({
    env: { SWEEPER_PRIVATE_KEY: SWEEPER_KEY },
    depositFactory: (rpcUrl, receiver) => deployLookAlikeFactory(rpcUrl, { from: ANVIL_ACCOUNTS[0], receiver, thief }),
  });
  factory = kit.env.config.depositFactoryAddress as Address;
  buyer = await kit.createUser({ name: 'Buyer' });
  admin = await kit.createUser({ name: 'Admin', isAdmin: true });
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.close();
});

const refusal = () => `the code at ${getAddress(factory)} is not the shop's deposit factory (DepositFactory.sol)`;

describe('a look-alike deposit factory', () => {
  it('gives a new order no deposit address; the order is placed and paid by its tag as usual', async () => {
    const order = await kit.placeOrder(buyer);
    expect({ shown: order.depositAddress, stored: (await kit.db.order.findUniqueOrThrow({ where: { id: order.id } })).depositAddress }).toEqual({ shown: null, stored: null });
    await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
  });

  it('sweeps nothing through it: a deposit at one of its addresses (given before the check) stays there, and the thief gets nothing', async () => {
    const order = await kit.placeOrder(buyer);
    // The address it would have had (an order placed before the shop checked the code).
    const address = depositAddressOf(factory, order.id);
    await kit.db.order.update({ where: { id: order.id }, data: { depositAddress: address } });
    // The pay page does not show it (any more).
    expect((await (await kit.as(buyer)).get(`/api/orders/${order.id}`)).body.quote).toMatchObject({ depositAddress: null });
    const value = order.amountWei - (order.amountWei % MICRO_ETH_WEI);
    await kit.chain.sendAndWait(exchange, address, value);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');

    const thiefBefore = await balance(thief);
    const run = await sweepNow();
    await kit.chain.mine(1);
    expect({
      state: run.state,
      reason: run.reason,
      sweeps: await kit.db.depositSweep.count(),
      gasWalletTransactions: await kit.chain.wallet.getTransactionCount({ address: sweeper }),
      thiefGained: (await balance(thief)) - thiefBefore,
      atTheAddress: await balance(address),
    }).toEqual({ state: 'waiting', reason: `Sweeping refused: ${refusal()}`, sweeps: 0, gasWalletTransactions: 0, thiefGained: 0n, atTheAddress: value });
    // Nor is a token recovered through it (the token is never even read).
    await expect(recoverDepositToken(kit.workerRuntime, order.id, payer)).rejects.toThrow(`Refused: ${refusal()}`);
    expect(await kit.chain.wallet.getTransactionCount({ address: sweeper })).toBe(0);
  });

  it('says why: in the health details for operators, in the metrics, and on the admin deposits summary', async () => {
    const health = await (await kit.as(admin)).get('/api/health');
    // Not an outage: the shop takes orders and payments by tag.
    expect(health.status).toBe(200);
    expect(health.body.details.depositFactory).toMatchObject({ address: factory, state: 'refused', reason: refusal() });
    expect((await request(kit.app).get('/api/health')).body.details).toBeUndefined();
    expect((await request(kit.app).get('/metrics')).text).toMatch(/^shop_deposit_factory_trusted{state="refused"} 0$/m);
    const summary = await (await kit.as(admin)).get('/api/admin/deposits');
    expect(summary.status).toBe(200);
    expect(summary.body.factory).toMatchObject({ address: factory, state: 'refused', reason: refusal() });
  });

  it('is checked by the api and the worker processes as they start: the api refuses it in its health details, the worker logs why', async () => {
    const token = 'scrape-token-0123456789';
    const env = processEnv(kit.env.config, { DEPOSIT_FACTORY_ADDRESS: factory, METRICS_TOKEN: token, LOG_LEVEL: 'error' });
    const started: ShopProcess[] = [];
    try {
      started.push(await startApiProcess('api', env), await startWorkerProcess('worker', env));
      const [api, worker] = started as [ShopProcess, ShopProcess];
      await waitFor('the api process to refuse the factory', async () => {
        const health = (await (await fetch(`${api.url}/api/health`, { headers: { authorization: `Bearer ${token}` } })).json()) as { details: { depositFactory: { state: string; reason: string } } };
        return health.details.depositFactory.state === 'refused' && health.details.depositFactory.reason === refusal();
      });
      await waitFor('the worker process to log why', async () => worker.output().includes(`deposit factory refused: ${refusal()}`));
    } finally {
      await Promise.all(started.map((p) => p.kill()));
    }
  });
});
