import { createPublicClient, custom, http, HttpRequestError, type Address, type PublicClient } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../../scripts/lib/anvil.ts';
import { deployDepositFactory } from '../../../scripts/lib/deposit-factory.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { deployLookAlikeFactory } from '../../../scripts/testing/look-alike-factory.ts';
import { createLogger } from '../infra/logger.ts';
import { depositAddressOf } from './addresses.ts';
import { createFactoryTrust } from './factory-trust.ts';

/**
 * What a process does with the factory's check (deposits/factory-trust.ts): deposit
 * addresses only once the code has been found to be the shop's; a node that does not
 * answer is asked again, and never turns a verdict either way.
 */
const [deployer, receiving, thief] = [ANVIL_ACCOUNTS[0], ANVIL_ACCOUNTS[1], ANVIL_ACCOUNTS[7]];
const ORDER = '7f0c7c55-3d5b-4f7e-9a52-1f0f8f6b2a10';
const logger = createLogger({ level: 'silent' });
const quick = { retryMs: 10, maxRetryMs: 40, recheckMs: 600_000 };

let anvil: AnvilInstance;
let genuine: Address;

/** A node that answers while `up`, and fails as an unreachable one does otherwise; counts the checks' reads. */
function flakyNode() {
  const node = createPublicClient({ chain: mainnet, transport: http(anvil.rpcUrl) });
  const state = { up: false, codeReads: 0 };
  const client = createPublicClient({
    chain: mainnet,
    transport: custom({
      async request({ method, params }) {
        if (method === 'eth_getCode') state.codeReads++;
        if (!state.up) throw new HttpRequestError({ url: 'http://node.invalid', details: 'connect ECONNREFUSED' });
        return node.request({ method, params } as never);
      },
    }, { retryCount: 0 }),
  }) as PublicClient;
  return { client, state };
}

beforeAll(async () => {
  anvil = await startAnvil();
  genuine = (await deployDepositFactory({ rpcUrl: anvil.rpcUrl, account: deployer, receiver: receiving })).address;
});
afterAll(async () => {
  await anvil?.stop();
});

describe("a process's trust in the deposit factory", () => {
  it('hands out no deposit address until the node answers the check, asking again meanwhile; then the factory is trusted', async () => {
    const node = flakyNode();
    const trust = createFactoryTrust({ config: { depositFactoryAddress: genuine, receivingAddress: receiving }, chain: node.client, logger }, quick);
    try {
      const started = trust.start();
      await waitFor('the check to be tried three times', async () => node.state.codeReads >= 6);
      expect(trust.verdict()).toMatchObject({ state: 'checking', reason: 'the node has not answered the check yet; asking again', checkedAt: null });
      expect(trust.depositAddressOf(ORDER)).toBeNull();
      node.state.up = true;
      expect(await started).toMatchObject({ address: genuine.toLowerCase(), state: 'trusted', reason: null });
      expect(trust.depositAddressOf(ORDER)).toBe(depositAddressOf(genuine, ORDER));

      // A node failing after that is no reason to stop: the code it read cannot have changed by itself.
      node.state.up = false;
      await expect(trust.check()).rejects.toThrow(HttpRequestError);
      expect(trust.verdict().state).toBe('trusted');
      expect(trust.depositAddressOf(ORDER)).toBe(depositAddressOf(genuine, ORDER));
    } finally {
      trust.stop();
    }
  });

  it("refuses a look-alike: its addresses are never handed out, and the reason is kept", async () => {
    const factory = await deployLookAlikeFactory(anvil.rpcUrl, { from: deployer, receiver: receiving, thief });
    const chain = createPublicClient({ chain: mainnet, transport: http(anvil.rpcUrl) }) as PublicClient;
    const trust = createFactoryTrust({ config: { depositFactoryAddress: factory, receivingAddress: receiving }, chain, logger }, quick);
    try {
      expect(await trust.start()).toMatchObject({ state: 'refused', reason: expect.stringMatching(/is not the shop's deposit factory/) });
      expect(trust.depositAddressOf(ORDER)).toBeNull();
    } finally {
      trust.stop();
    }
  });

  it('is off without a factory, asking the node nothing', async () => {
    const node = flakyNode();
    const trust = createFactoryTrust({ config: { depositFactoryAddress: undefined, receivingAddress: receiving }, chain: node.client, logger }, quick);
    expect(await trust.start()).toMatchObject({ address: null, state: 'off' });
    expect(trust.depositAddressOf(ORDER)).toBeNull();
    expect(node.state.codeReads).toBe(0);
  });
});
