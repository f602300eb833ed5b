import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceReaderBytecodeModule, BALANCE_READER_BYTECODE_FILE } from '../../../scripts/build-contracts.ts';
import { startAnvil, type AnvilInstance } from '../../../scripts/lib/anvil.ts';
import { ANVIL_ACCOUNTS, anvilDriver } from '../../../scripts/testing/chain.ts';
import { createChainClient, type ChainClient } from './public-client.ts';
import { balanceAfter, balancesAfter } from './rpc.ts';

let anvil: AnvilInstance;
let client: ChainClient;

beforeAll(async () => {
  anvil = await startAnvil();
  client = createChainClient(anvil.rpcUrl);
});
afterAll(async () => {
  await anvil?.stop();
});

describe('balances of many addresses at a block, in one call', () => {
  it('is built from BalanceReader.sol: the committed bytecode is what the source compiles to', async () => {
    expect(await readFile(BALANCE_READER_BYTECODE_FILE, 'utf8'), 'run npm run contracts:build').toBe(await balanceReaderBytecodeModule());
  });

  it("answers each address's balance after the block named by its hash, as eth_getBalance would, and nothing for none", async () => {
    const chain = anvilDriver(anvil.rpcUrl);
    const fresh = '0x00000000000000000000000000000000000d0e01';
    const before = await client.getBlock();
    await chain.sendAndWait(ANVIL_ACCOUNTS[1], fresh, 12345n);
    const after = await client.getBlock();
    const addresses = [fresh, ANVIL_ACCOUNTS[1].toLowerCase(), ANVIL_ACCOUNTS[2].toLowerCase()];
    const single = (hash: `0x${string}`) => Promise.all(addresses.map((a) => balanceAfter(client, a, hash)));
    expect(await balancesAfter(client, addresses, before.hash)).toEqual(await single(before.hash));
    expect(await balancesAfter(client, addresses, after.hash)).toEqual(await single(after.hash));
    expect((await balancesAfter(client, addresses, after.hash))![0]).toBe(12345n);
    expect(await balancesAfter(client, [], after.hash)).toEqual([]);
  });
});
