import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  createTestClient,
  domainSeparator,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  keccak256,
  parseAbi,
  parseSignature,
  publicActions,
  stringToHex,
  walletActions,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../../core/src/contract/signed-transfer.ts';
import { MAINNET_TOKENS, tokenBySymbol } from '../../core/src/contract/tokens.ts';
import { ANVIL_DEV_ACCOUNTS, CHAINLINK_ETH_USD_FEED } from '../../core/src/infra/config.ts';
import { startAnvil, type AnvilInstance } from './anvil.ts';
import { REPO_ROOT } from './paths.ts';
import { installPriceFeedMock, mockAggregatorAbi } from './price-feed-mock.ts';
import { DEV_TOKEN_GRANT, installTokenMocks, mintMockToken, TOKEN_MOCK_OWNER } from './token-mocks.ts';

/**
 * The local chain's USDC and USDT (scripts/lib/token-mocks.ts): at their mainnet addresses,
 * with what the shop will meet on mainnet (6 decimals, the blocklists, USDC's EIP-3009
 * authorizations in mainnet's domain, USDT's transfer that returns nothing) and their
 * USD feeds at 1.00.
 */
const USDC = tokenBySymbol('USDC');
const USDT = tokenBySymbol('USDT');
const [alice, bob, carol, dave, , relayer] = ANVIL_DEV_ACCOUNTS;

const usdcAbi = parseAbi([
  'function isBlacklisted(address) view returns (bool)',
  'function blacklist(address)',
  'function unBlacklist(address)',
  'function authorizationState(address, bytes32) view returns (bool)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
]);
const usdtAbi = parseAbi([
  'function getBlackListStatus(address) view returns (bool)',
  'function addBlackList(address)',
  'function removeBlackList(address)',
  'function transfer(address to, uint256 value)',
]);

function clientFor(rpcUrl: string) {
  return createTestClient({ mode: 'anvil', chain: mainnet, transport: http(rpcUrl, { timeout: 30_000 }) })
    .extend(publicActions)
    .extend(walletActions);
}

let anvil: AnvilInstance;
let client: ReturnType<typeof clientFor>;

beforeAll(async () => {
  anvil = await startAnvil();
  client = clientFor(anvil.rpcUrl);
  await installTokenMocks(anvil.rpcUrl);
});

afterAll(async () => {
  await anvil?.stop();
});

const balanceOf = (token: Address, who: Address) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

/**
 * Sends a contract call from an unlocked anvil account as a careful wallet does: simulated
 * first, so a revert fails here with its reason (anvil would mine the reverted transaction).
 */
async function send(request: Parameters<typeof client.writeContract>[0]) {
  await client.simulateContract(request as Parameters<typeof client.simulateContract>[0]);
  const hash = await client.writeContract(request);
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

describe('the pinned token list', () => {
  it('names mainnet USDC and USDT, checksummed, with 6 decimals and their Chainlink USD feeds', () => {
    expect(MAINNET_TOKENS.map((t) => [t.symbol, t.address, t.usdFeed])).toEqual([
      ['USDC', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', '0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6'],
      ['USDT', '0xdAC17F958D2ee523a2206206994597C13D831ec7', '0x3E7d1eAB13ad0104d2750B8863b489D65364e32D'],
    ]);
    for (const token of MAINNET_TOKENS) {
      expect(getAddress(token.address)).toBe(token.address);
      expect(getAddress(token.usdFeed)).toBe(token.usdFeed);
      expect(token.decimals).toBe(6);
    }
  });
});

describe('mock USDC and USDT at their mainnet addresses', () => {
  it('answer as mainnet does: name, symbol, 6 decimals', async () => {
    for (const token of MAINNET_TOKENS) {
      const [name, symbol, decimals] = await Promise.all(
        (['name', 'symbol', 'decimals'] as const).map((functionName) => client.readContract({ address: token.address, abi: erc20Abi, functionName })),
      );
      expect({ name, symbol, decimals }).toEqual({ name: token.name, symbol: token.symbol, decimals: 6 });
    }
  });

  it('hold 10,000 of each for anvil accounts #0 to #9, and no more in all', async () => {
    for (const token of MAINNET_TOKENS) {
      for (const account of ANVIL_DEV_ACCOUNTS) expect(await balanceOf(token.address, account)).toBe(10_000_000_000n);
      expect(await client.readContract({ address: token.address, abi: erc20Abi, functionName: 'totalSupply' })).toBe(DEV_TOKEN_GRANT * 10n);
    }
  });

  it('mined no block and moved no nonce to get there', async () => {
    expect(await client.getBlockNumber()).toBe(0n);
    expect(await client.getTransactionCount({ address: alice })).toBe(0);
  });

  it('keep their balances when placed again on the same chain (nothing minted twice)', async () => {
    await send({ account: alice, address: USDC.address, abi: erc20Abi, functionName: 'transfer', args: [bob, 1_000_000n], chain: mainnet });
    const again = await installTokenMocks(anvil.rpcUrl);
    expect(again.map((t) => t.minted)).toEqual([false, false]);
    expect(await balanceOf(USDC.address, alice)).toBe(DEV_TOKEN_GRANT - 1_000_000n);
    expect(await balanceOf(USDC.address, bob)).toBe(DEV_TOKEN_GRANT + 1_000_000n);
    expect(await client.readContract({ address: USDT.address, abi: erc20Abi, functionName: 'totalSupply' })).toBe(DEV_TOKEN_GRANT * 10n);
  });
});

describe("USDC's blocklist", () => {
  it('answers isBlacklisted, and a transfer from or to a blocked address reverts until it is lifted', async () => {
    expect(await client.readContract({ address: USDC.address, abi: usdcAbi, functionName: 'isBlacklisted', args: [carol] })).toBe(false);
    await expect(send({ account: bob, address: USDC.address, abi: usdcAbi, functionName: 'blacklist', args: [carol], chain: mainnet })).rejects.toThrow(/caller is not the owner/);

    await send({ account: TOKEN_MOCK_OWNER, address: USDC.address, abi: usdcAbi, functionName: 'blacklist', args: [carol], chain: mainnet });
    expect(await client.readContract({ address: USDC.address, abi: usdcAbi, functionName: 'isBlacklisted', args: [carol] })).toBe(true);
    await expect(send({ account: carol, address: USDC.address, abi: erc20Abi, functionName: 'transfer', args: [dave, 1n], chain: mainnet })).rejects.toThrow(/Blacklistable: account is blacklisted/);
    await expect(send({ account: dave, address: USDC.address, abi: erc20Abi, functionName: 'transfer', args: [carol, 1n], chain: mainnet })).rejects.toThrow(/Blacklistable: account is blacklisted/);

    await send({ account: TOKEN_MOCK_OWNER, address: USDC.address, abi: usdcAbi, functionName: 'unBlacklist', args: [carol], chain: mainnet });
    const receipt = await send({ account: carol, address: USDC.address, abi: erc20Abi, functionName: 'transfer', args: [dave, 1n], chain: mainnet });
    expect(receipt.status).toBe('success');
    expect(await balanceOf(USDC.address, dave)).toBe(DEV_TOKEN_GRANT + 1n);
  });
});

describe("USDC's transferWithAuthorization (EIP-3009)", () => {
  // A holder who signs but never sends a transaction (it has no ETH): the relayer pays the gas.
  const signer = privateKeyToAccount(keccak256(stringToHex('token-mocks.test: an EIP-3009 signer')));
  const domain = { name: 'USD Coin', version: '2', chainId: 1, verifyingContract: USDC.address } as const;

  beforeAll(async () => {
    await mintMockToken(anvil.rpcUrl, USDC, [signer.address], 500_000_000n);
  });

  async function authorization(opts: { to: Address; value: bigint; nonce: Hex; domain?: typeof domain | { name: string; version: string; chainId: number; verifyingContract: Address } }) {
    const message = { from: signer.address, to: opts.to, value: opts.value, validAfter: 0n, validBefore: 2n ** 48n, nonce: opts.nonce };
    const signature = await signer.signTypedData({ domain: opts.domain ?? domain, types: TRANSFER_WITH_AUTHORIZATION_TYPES, primaryType: 'TransferWithAuthorization', message });
    const { v, r, s } = parseSignature(signature);
    return [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, Number(v), r, s] as const;
  }

  it('signs in mainnet\'s domain (name "USD Coin", version "2", chain 1, the token\'s address)', async () => {
    const separator = await client.readContract({ address: USDC.address, abi: usdcAbi, functionName: 'DOMAIN_SEPARATOR' });
    expect(separator).toBe(domainSeparator({ domain }));
    // What mainnet's USDC answers for DOMAIN_SEPARATOR().
    expect(separator).toBe('0x06c37168a7db5138defc7866392bb87a741f9b3d104deb5094588ce041cae335');
  });

  it('moves the funds once, sent by anyone; the same authorization again reverts', async () => {
    const nonce = keccak256(stringToHex('nonce 1'));
    const args = await authorization({ to: dave, value: 120_000_000n, nonce });
    const before = await balanceOf(USDC.address, dave);
    const receipt = await send({ account: relayer, address: USDC.address, abi: usdcAbi, functionName: 'transferWithAuthorization', args, chain: mainnet });
    expect(receipt.status).toBe('success');
    expect(await balanceOf(USDC.address, dave)).toBe(before + 120_000_000n);
    expect(await balanceOf(USDC.address, signer.address)).toBe(380_000_000n);
    expect(await client.readContract({ address: USDC.address, abi: usdcAbi, functionName: 'authorizationState', args: [signer.address, nonce] })).toBe(true);

    await expect(send({ account: relayer, address: USDC.address, abi: usdcAbi, functionName: 'transferWithAuthorization', args, chain: mainnet })).rejects.toThrow(/authorization is used or canceled/);
    expect(await balanceOf(USDC.address, dave)).toBe(before + 120_000_000n);
  });

  it('reverts a signature made in another domain (version "1", another chain, another contract)', async () => {
    const wrongDomains = [
      { ...domain, version: '1' },
      { ...domain, chainId: 11155111 },
      { ...domain, verifyingContract: USDT.address },
    ];
    for (const [i, wrong] of wrongDomains.entries()) {
      const args = await authorization({ to: dave, value: 1_000_000n, nonce: keccak256(stringToHex(`wrong domain ${i}`)), domain: wrong });
      await expect(send({ account: relayer, address: USDC.address, abi: usdcAbi, functionName: 'transferWithAuthorization', args, chain: mainnet })).rejects.toThrow(/FiatTokenV2: invalid signature/);
    }
    expect(await balanceOf(USDC.address, signer.address)).toBe(380_000_000n);
  });

  it('refuses a blocked payee, a receiveWithAuthorization sent by another than the payee, and a canceled authorization', async () => {
    await send({ account: TOKEN_MOCK_OWNER, address: USDC.address, abi: usdcAbi, functionName: 'blacklist', args: [carol], chain: mainnet });
    const toBlocked = await authorization({ to: carol, value: 1n, nonce: keccak256(stringToHex('to a blocked payee')) });
    await expect(send({ account: relayer, address: USDC.address, abi: usdcAbi, functionName: 'transferWithAuthorization', args: toBlocked, chain: mainnet })).rejects.toThrow(/Blacklistable: account is blacklisted/);
    await send({ account: TOKEN_MOCK_OWNER, address: USDC.address, abi: usdcAbi, functionName: 'unBlacklist', args: [carol], chain: mainnet });

    // A receive authorization is signed under its own typehash; only the payee may submit it.
    const nonce = keccak256(stringToHex('receive'));
    const message = { from: signer.address, to: dave, value: 1n, validAfter: 0n, validBefore: 2n ** 48n, nonce };
    const { v, r, s } = parseSignature(
      await signer.signTypedData({ domain, types: { ReceiveWithAuthorization: TRANSFER_WITH_AUTHORIZATION_TYPES.TransferWithAuthorization }, primaryType: 'ReceiveWithAuthorization', message }),
    );
    const receiveArgs = [message.from, message.to, message.value, message.validAfter, message.validBefore, nonce, Number(v), r, s] as const;
    await expect(send({ account: relayer, address: USDC.address, abi: usdcAbi, functionName: 'receiveWithAuthorization', args: receiveArgs, chain: mainnet })).rejects.toThrow(/caller must be the payee/);
    expect((await send({ account: dave, address: USDC.address, abi: usdcAbi, functionName: 'receiveWithAuthorization', args: receiveArgs, chain: mainnet })).status).toBe('success');

    const canceled = keccak256(stringToHex('canceled'));
    const cancel = parseSignature(
      await signer.signTypedData({ domain, types: { CancelAuthorization: [{ name: 'authorizer', type: 'address' }, { name: 'nonce', type: 'bytes32' }] }, primaryType: 'CancelAuthorization', message: { authorizer: signer.address, nonce: canceled } }),
    );
    await send({ account: relayer, address: USDC.address, abi: usdcAbi, functionName: 'cancelAuthorization', args: [signer.address, canceled, Number(cancel.v), cancel.r, cancel.s], chain: mainnet });
    const args = await authorization({ to: dave, value: 1n, nonce: canceled });
    await expect(send({ account: relayer, address: USDC.address, abi: usdcAbi, functionName: 'transferWithAuthorization', args, chain: mainnet })).rejects.toThrow(/authorization is used or canceled/);
  });
});

describe("USDT's transfer", () => {
  it('returns no data at all', async () => {
    const { data } = await client.call({ account: alice, to: USDT.address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [bob, 1_000_000n] }) });
    expect(data ?? '0x').toBe('0x');
    // USDC, by contrast, answers true.
    const usdc = await client.call({ account: alice, to: USDC.address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [bob, 1_000_000n] }) });
    expect(usdc.data).toBe(`0x${'1'.padStart(64, '0')}`);
  });

  it("is still sent with viem's writeContract and a bool-returning ERC-20 ABI: the transaction succeeds (simulating with that ABI fails)", async () => {
    const request = { account: alice, address: USDT.address, abi: erc20Abi, functionName: 'transfer', args: [bob, 2_500_000n], chain: mainnet } as const;
    // The trap a sender must avoid: viem decodes the simulated call's result as the ABI's bool.
    await expect(client.simulateContract(request)).rejects.toThrow(/returned no data \("0x"\)/);
    const before = await balanceOf(USDT.address, bob);
    const hash = await client.writeContract(request);
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success');
    expect(await balanceOf(USDT.address, bob)).toBe(before + 2_500_000n);
  });

  it('reverts for a blocked sender (getBlackListStatus says so), while a blocked address can still receive', async () => {
    await expect(send({ account: bob, address: USDT.address, abi: usdtAbi, functionName: 'addBlackList', args: [carol], chain: mainnet })).rejects.toThrow();
    await send({ account: TOKEN_MOCK_OWNER, address: USDT.address, abi: usdtAbi, functionName: 'addBlackList', args: [carol], chain: mainnet });
    expect(await client.readContract({ address: USDT.address, abi: usdtAbi, functionName: 'getBlackListStatus', args: [carol] })).toBe(true);
    await expect(send({ account: carol, address: USDT.address, abi: usdtAbi, functionName: 'transfer', args: [dave, 1n], chain: mainnet })).rejects.toThrow();
    expect(await balanceOf(USDT.address, carol)).toBe(DEV_TOKEN_GRANT);
    expect((await send({ account: dave, address: USDT.address, abi: usdtAbi, functionName: 'transfer', args: [carol, 1n], chain: mainnet })).status).toBe('success');
    await send({ account: TOKEN_MOCK_OWNER, address: USDT.address, abi: usdtAbi, functionName: 'removeBlackList', args: [carol], chain: mainnet });
    expect(await client.readContract({ address: USDT.address, abi: usdtAbi, functionName: 'getBlackListStatus', args: [carol] })).toBe(false);
  });
});

describe('the USDC/USD and USDT/USD feeds', () => {
  const latest = async (feed: Address) => {
    const [roundId, answer] = await client.readContract({ address: feed, abi: mockAggregatorAbi, functionName: 'latestRoundData' });
    return { roundId, answer, decimals: await client.readContract({ address: feed, abi: mockAggregatorAbi, functionName: 'decimals' }) };
  };

  it('answer 1.00000000 at the mainnet feed addresses, with 8 decimals', async () => {
    for (const token of MAINNET_TOKENS) expect(await latest(token.usdFeed)).toMatchObject({ answer: 100_000_000n, decimals: 8 });
  });

  it('npm run chain:price -- --feed USDC 0.97 sets that feed alone; a bare price sets ETH/USD', async () => {
    await installPriceFeedMock(anvil.rpcUrl, { priceUsd: '3000' });
    const chainPrice = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/chain/set-price.ts'), ...args], { cwd: REPO_ROOT, env: { ...process.env, ETH_RPC_URL: anvil.rpcUrl }, timeout: 120_000 });

    const { stdout } = await chainPrice('--feed', 'USDC', '0.97');
    expect(stdout).toMatch(/USDC\/USD = 0\.97000000/);
    expect(await latest(USDC.usdFeed)).toMatchObject({ answer: 97_000_000n });
    expect(await latest(USDT.usdFeed)).toMatchObject({ answer: 100_000_000n });
    expect(await latest(CHAINLINK_ETH_USD_FEED)).toMatchObject({ answer: 300_000_000_000n });

    await chainPrice('3150.25');
    expect(await latest(CHAINLINK_ETH_USD_FEED)).toMatchObject({ answer: 315_025_000_000n });
    expect(await latest(USDC.usdFeed)).toMatchObject({ answer: 97_000_000n });

    await expect(chainPrice('--feed', 'DAI', '1')).rejects.toThrow(/--feed must be one of ETH, USDC, USDT/);
  });
});

describe('on a chain kept in a state file (npm start)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'shop-token-mocks-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the balances across a restart and mints nothing again', async () => {
    const statePath = path.join(dir, 'anvil-state.json');
    const first = await startAnvil({ statePath });
    try {
      expect((await installTokenMocks(first.rpcUrl)).map((t) => t.minted)).toEqual([true, true]);
      const node = clientFor(first.rpcUrl);
      const hash = await node.writeContract({ account: alice, address: USDT.address, abi: erc20Abi, functionName: 'transfer', args: [bob, 7_000_000n], chain: mainnet });
      expect((await node.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success');
    } finally {
      await first.stop(); // writes the state file
    }
    const again = await startAnvil({ statePath });
    try {
      const node = clientFor(again.rpcUrl);
      expect((await installTokenMocks(again.rpcUrl)).map((t) => t.minted)).toEqual([false, false]);
      expect(await node.readContract({ address: USDT.address, abi: erc20Abi, functionName: 'balanceOf', args: [alice] })).toBe(DEV_TOKEN_GRANT - 7_000_000n);
      expect(await node.readContract({ address: USDT.address, abi: erc20Abi, functionName: 'balanceOf', args: [bob] })).toBe(DEV_TOKEN_GRANT + 7_000_000n);
      expect(await node.readContract({ address: USDC.address, abi: erc20Abi, functionName: 'balanceOf', args: [alice] })).toBe(DEV_TOKEN_GRANT);
      expect(await node.readContract({ address: USDT.address, abi: erc20Abi, functionName: 'totalSupply' })).toBe(DEV_TOKEN_GRANT * 10n);
    } finally {
      await again.stop();
    }
  });
});
