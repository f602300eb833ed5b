import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, MICRO_ETH_WEI, readSweeperStatus } from '@shop/core';
import { waitFor } from '../../../scripts/testing/chain.ts';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * 'Sweep now' on the admin's deposits page sends a sweep; the worker then follows it at
 * once (a run SWEEP_FOLLOW_MS later, and again while it is on its way), so a mined sweep
 * is CONFIRMED and the page stops saying "1 sweep on the way" within seconds, not at the
 * next scheduled run (SWEEP_INTERVAL_MS, ten minutes by default). Nobody asks for another
 * run here: the only runs after the first are the ones the worker asked for itself.
 */
/** Anvil's dev account #8: the gas wallet, signed here (SWEEPER_PRIVATE_KEY). */
const SWEEPER_KEY = '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97';
const exchange = ANVIL_ACCOUNTS[4];

let kit: PaymentKit;
beforeAll(async () => {
  kit = await createPaymentKit({ env: { SWEEPER_PRIVATE_KEY: SWEEPER_KEY, SWEEP_FOLLOW_MS: '500' } });
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.close();
});

describe("following the sweep 'Sweep now' sent", () => {
  it('confirms it within seconds of being mined, with no other run asked for; the status then says idle', async () => {
    const buyer = await kit.createUser({ name: 'Buyer' });
    const order = await kit.placeOrder(buyer);
    await kit.chain.sendAndWait(exchange, order.depositAddress, order.amountWei - (order.amountWei % MICRO_ETH_WEI));
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    await waitFor('the deposit counted', async () => (await kit.db.payment.findFirst({ where: { depositAddress: order.depositAddress, status: 'COUNTED' } })) !== null);

    // 'Sweep now': one run, which sends the sweep.
    await jobs.sweepDeposits(kit.workerRuntime.queues);
    const sent = await waitFor('the sweep sent', () => kit.db.depositSweep.findFirst({ where: { status: 'SENT' } }));
    expect((await readSweeperStatus(kit.workerRuntime.redis, kit.workerRuntime.config))?.state).toBe('sent');

    // The chain goes on and the indexer passes the sweep's block (it runs every few seconds in the worker).
    const confirmed = await waitFor(
      'the sweep followed to CONFIRMED by the runs the worker asked for itself',
      async () => {
        await kit.chain.mine(1);
        await kit.runIndexer();
        const row = await kit.db.depositSweep.findUniqueOrThrow({ where: { id: sent.id } });
        return row.status === 'CONFIRMED' ? row : null;
      },
      20_000,
    );
    expect(confirmed.sweptWei?.toFixed(0)).toBe(confirmed.expectedWei.toFixed(0));
    await waitFor('the status idle', async () => (await readSweeperStatus(kit.workerRuntime.redis, kit.workerRuntime.config))?.state === 'idle');
    // Once nothing is on its way, the follow-ups stop: none waits.
    await waitFor('no follow-up waiting', async () => (await kit.workerRuntime.queues['deposit-sweep'].getDelayedCount()) === 0);
  });
});
