import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { forwarderOf } from '../deposits/addresses.ts';
import { ANVIL_DEV_ACCOUNTS, DEV_RECEIVING_ADDRESS, loadConfig, payoutWallet, Prisma, UserError } from '../index.ts';
import { createCoreTestKit, type CoreTestKit } from '../../../scripts/testing/core-kit.ts';

/**
 * A wallet a cashout or refund may be paid to is never one of the shop's own addresses:
 * ETH "paid out" there never leaves the shop, yet the payout would count as paid (and a
 * deposit address's ETH would be swept on as a payment).
 */
const FACTORY = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const SWEEPER = ANVIL_DEV_ACCOUNTS[8];
const PAYOUTS = [ANVIL_DEV_ACCOUNTS[5], '0x000000000000000000000000000000000000bEEF'];
const SOMEONE = '0x1111111111111111111111111111111111111111';

let kit: CoreTestKit;
beforeAll(async () => {
  kit = await createCoreTestKit({ env: { DEPOSIT_FACTORY_ADDRESS: FACTORY, SWEEPER_ADDRESS: SWEEPER, PAYOUT_ADDRESSES: PAYOUTS.join(',') } });
});
afterAll(async () => {
  await kit?.close();
});

async function refusal(wallet: string): Promise<string | null> {
  try {
    await payoutWallet(kit.db, kit.env.config, wallet);
    return null;
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    expect(err.status).toBe(400);
    return err.message;
  }
}

describe('a payout wallet', () => {
  it("is never one of the shop's own addresses: the receiving address, an order's deposit address, the factory, its forwarder, the gas wallet or a payout address", async () => {
    const buyer = await kit.createUser();
    const deposit = '0x9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b';
    const order = await kit.db.order.create({ data: { userId: buyer.id, itemsPrice: new Prisma.Decimal(25), totalPrice: new Prisma.Decimal(25), depositAddress: deposit } });

    expect(await refusal(DEV_RECEIVING_ADDRESS)).toBe("This is the shop's own receiving address: enter the wallet the payout should go to");
    // Any order's deposit address, lower-cased or checksummed (EIP-55).
    expect(await refusal(deposit)).toBe("This is one of the shop's own addresses (an order's deposit address): enter the wallet the payout should go to");
    expect(await refusal(getAddress(deposit))).toMatch(/an order's deposit address/);
    expect(await refusal(FACTORY)).toMatch(/^This is one of the shop's own addresses \(the deposit factory\)/);
    expect(await refusal(forwarderOf(FACTORY))).toMatch(/\(the deposit forwarder\)/);
    expect(await refusal(SWEEPER)).toMatch(/\(the gas wallet\)/);
    for (const a of PAYOUTS) expect(await refusal(a)).toMatch(/\(a payout address\)/);
    expect(await refusal(PAYOUTS[1]!.toLowerCase())).toMatch(/\(a payout address\)/);
    // Anyone else's wallet is fine, returned as typed.
    expect(await payoutWallet(kit.db, kit.env.config, ` ${SOMEONE} `)).toBe(SOMEONE);
    // (The reconciler would read this address's balance from a chain this test has none of.)
    await kit.db.order.delete({ where: { id: order.id } });
  });

  it('the receiving address may not be a payout address: the configuration says so at start-up', () => {
    expect(() => loadConfig({ RECEIVING_ADDRESS: ANVIL_DEV_ACCOUNTS[1], PAYOUT_ADDRESSES: `${ANVIL_DEV_ACCOUNTS[0]},${ANVIL_DEV_ACCOUNTS[1].toLowerCase()}` })).toThrow(
      /PAYOUT_ADDRESSES.*the receiving address/,
    );
    // A development shop's default payout wallet is not its receiving address either.
    const dev = loadConfig({});
    expect(dev.payoutAddresses).not.toContain(dev.receivingAddress.toLowerCase());
  });
});
