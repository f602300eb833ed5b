import { createPublicClient, getAddress, http, type Address, type PublicClient } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../../scripts/lib/anvil.ts';
import { deployDepositFactory } from '../../../scripts/lib/deposit-factory.ts';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import { deployLookAlikeFactory } from '../../../scripts/testing/look-alike-factory.ts';
import { isNodeFailure } from '../chain/errors.ts';
import { forwarderOf } from './addresses.ts';
import { factoryProblem } from './factory-check.ts';

/**
 * Is the configured deposit factory the shop's (deposits/factory-check.ts): its code and
 * its forwarder's code on chain, byte for byte, are what DepositFactory.sol deploys for
 * this receiving address. Asking the factory about itself proves nothing: a look-alike
 * answers receiver(), forwarder() and proxyCodeHash() as the shop's does.
 */
const [deployer, receiving, otherReceiver, thief] = [ANVIL_ACCOUNTS[0], ANVIL_ACCOUNTS[1], ANVIL_ACCOUNTS[2], ANVIL_ACCOUNTS[7]];

let anvil: AnvilInstance;
let chain: PublicClient;
const problemOf = (factory: Address, receivingAddress: Address = receiving) => factoryProblem({ config: { depositFactoryAddress: factory, receivingAddress }, chain });

beforeAll(async () => {
  anvil = await startAnvil();
  chain = createPublicClient({ chain: mainnet, transport: http(anvil.rpcUrl) }) as PublicClient;
});
afterAll(async () => {
  await anvil?.stop();
});

describe('the deposit factory check', () => {
  it('passes the genuine factory deployed for this receiving address', async () => {
    const { address } = await deployDepositFactory({ rpcUrl: anvil.rpcUrl, account: deployer, receiver: receiving });
    expect(await problemOf(address)).toBeNull();
  });

  it('refuses the genuine factory deployed for another receiving address, naming it', async () => {
    const { address } = await deployDepositFactory({ rpcUrl: anvil.rpcUrl, account: deployer, receiver: otherReceiver });
    expect(await problemOf(address)).toBe(`the deposit factory ${getAddress(address)} was deployed for the receiving address ${getAddress(otherReceiver)}, not ${getAddress(receiving)}`);
  });

  it('refuses a look-alike whose forwarder pays a thief, though it answers every question as the genuine one does', async () => {
    const factory = await deployLookAlikeFactory(anvil.rpcUrl, { from: deployer, receiver: receiving, thief });
    expect(await problemOf(factory)).toBe(`the code at ${getAddress(factory)} is not the shop's deposit factory (DepositFactory.sol)`);
  });

  it("refuses a look-alike whose own code is the genuine factory's, byte for byte: its forwarder gives it away", async () => {
    const factory = await deployLookAlikeFactory(anvil.rpcUrl, { from: deployer, receiver: receiving, thief, masked: true });
    expect(await problemOf(factory)).toBe(`the deposit factory ${getAddress(factory)} forwards deposits through ${getAddress(forwarderOf(factory))}, whose code is not the shop's forwarder paying ${getAddress(receiving)}`);
  });

  it('refuses an address with no contract', async () => {
    expect(await problemOf(thief)).toBe(`no contract is deployed at the deposit factory address ${getAddress(thief)}`);
  });

  it('throws when the node does not answer (retried by the caller), rather than calling the factory a look-alike', async () => {
    const { address } = await deployDepositFactory({ rpcUrl: anvil.rpcUrl, account: deployer, receiver: receiving });
    const deadNode = createPublicClient({ chain: mainnet, transport: http('http://127.0.0.1:9', { retryCount: 0 }) }) as PublicClient;
    const failure = await factoryProblem({ config: { depositFactoryAddress: address, receivingAddress: receiving }, chain: deadNode }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(isNodeFailure(failure)).toBe(true);
  });
});
