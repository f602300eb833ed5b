import { erc20Abi, parseAbi, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../../../scripts/lib/anvil.ts';
import { installTokenMocks, TOKEN_MOCK_OWNER } from '../../../../scripts/lib/token-mocks.ts';
import { anvilDriver } from '../../../../scripts/testing/chain.ts';
import { createChainClient } from '../../chain/public-client.ts';
import { tokenBySymbol, type Token } from '../../contract/tokens.ts';
import { ANVIL_DEV_ACCOUNTS } from '../../infra/config.ts';
import { createTokenRail, isBlocked, simulateTokenTransfer, tokenTransferData, tokenTransferRequest } from './index.ts';

/** Paying out in a token: the issuer's blocklist read first, the call simulated, sent, and read back from its Transfer log. */
const USDC = tokenBySymbol('USDC');
const USDT = tokenBySymbol('USDT');
const [, , alice, bob, shopPayout, frozen] = ANVIL_DEV_ACCOUNTS;

let anvil: AnvilInstance;
let chain: PublicClient;
let driver: ReturnType<typeof anvilDriver>;

beforeAll(async () => {
  anvil = await startAnvil();
  await installTokenMocks(anvil.rpcUrl);
  chain = createChainClient(anvil.rpcUrl) as unknown as PublicClient;
  driver = anvilDriver(anvil.rpcUrl);
});

afterAll(async () => {
  await anvil?.stop();
});

describe('isBlocked: the issuer’s blocklist, by the token entry’s `blocklist`', () => {
  it('reads USDC’s isBlacklisted and USDT’s getBlackListStatus', async () => {
    expect(USDC.blocklist).toBe('isBlacklisted');
    expect(USDT.blocklist).toBe('getBlackListStatus');
    for (const token of [USDC, USDT]) expect(await isBlocked({ chain }, token, frozen)).toBe(false);
    await driver.wallet.writeContract({ account: TOKEN_MOCK_OWNER, chain: null, address: USDC.address, abi: parseAbi(['function blacklist(address)']), functionName: 'blacklist', args: [frozen] });
    await driver.wallet.writeContract({ account: TOKEN_MOCK_OWNER, chain: null, address: USDT.address, abi: parseAbi(['function addBlackList(address)']), functionName: 'addBlackList', args: [frozen] });
    for (const token of [USDC, USDT]) {
      expect(await isBlocked({ chain }, token, frozen)).toBe(true);
      expect(await isBlocked({ chain }, token, bob)).toBe(false);
    }
  });
});

describe('sending a token', () => {
  it('encodes transfer(to, amount) to the token’s contract with no ETH', () => {
    expect(tokenTransferData(USDC, bob, 5_000_000n)).toBe(`0xa9059cbb${bob.slice(2).toLowerCase().padStart(64, '0')}${(5_000_000n).toString(16).padStart(64, '0')}`);
    expect(tokenTransferRequest(USDT, bob, 1n)).toMatchObject({ to: USDT.address, value: 0n });
    expect(() => tokenTransferData(USDC, bob, 0n)).toThrow();
  });

  it('simulates USDT with an ABI that has no outputs: the standard ERC-20 ABI fails on it ("returned no data")', async () => {
    const standard = chain.simulateContract({ account: alice, address: USDT.address, abi: erc20Abi, functionName: 'transfer', args: [bob, 1_000_000n] });
    await expect(standard).rejects.toThrow(/returned no data/);
    for (const token of [USDT, USDC]) await expect(simulateTokenTransfer(chain, token, alice, bob, 1_000_000n)).resolves.toBeUndefined();
    // A transfer that would revert says so before anything is signed: USDC to a blocked address, more than the balance.
    await driver.wallet.writeContract({ account: TOKEN_MOCK_OWNER, chain: null, address: USDC.address, abi: parseAbi(['function blacklist(address)']), functionName: 'blacklist', args: [bob] });
    await expect(simulateTokenTransfer(chain, USDC, alice, bob, 1n)).rejects.toThrow(/blacklisted/);
    await expect(simulateTokenTransfer(chain, USDT, alice, shopPayout, 10n ** 15n)).rejects.toThrow();
  });

  it('sends USDT and USDC from anvil accounts and reads each delivery back through payoutDelivery', async () => {
    const wallet = ANVIL_DEV_ACCOUNTS[7].toLowerCase();
    const send = async (token: Token, amount: bigint) => {
      const hash = await driver.wallet.sendTransaction({ account: shopPayout, chain: null, ...tokenTransferRequest(token, wallet, amount) });
      expect((await driver.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success');
      return hash;
    };
    const fromShop = (a: string) => a.toLowerCase() === shopPayout.toLowerCase();
    for (const [token, amount] of [[USDT, 42_000_000n], [USDC, 7_654_321n]] as const) {
      const rail = createTokenRail({ config: { chainId: 1 }, chain }, token);
      const hash = await send(token, amount);
      expect(await rail.payoutDelivery({ hash, from: shopPayout, to: token.address, value: 0n }, [wallet], fromShop)).toEqual({ toWallet: amount, sent: amount });
    }
  });
});
