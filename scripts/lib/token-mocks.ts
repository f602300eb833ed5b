import { join } from 'node:path';
import { createTestClient, encodeAbiParameters, http, keccak256, numberToHex, publicActions, type Address, type Hex } from 'viem';
import { mainnet } from 'viem/chains';
import { ANVIL_DEV_ACCOUNTS } from '../../core/src/infra/config.ts';
import { MAINNET_TOKENS, type Token, type TokenSymbol } from '../../core/src/contract/tokens.ts';
import { REPO_ROOT } from './paths.ts';
import { writeFeedRound } from './price-feed-mock.ts';
import { compileSolidity } from './solidity.ts';

/**
 * The local chain's USDC and USDT: mock-usdc.sol and mock-usdt.sol placed at the tokens'
 * mainnet addresses (core/src/contract/tokens.ts), and the mock Chainlink aggregator at
 * their USD feeds' addresses, so the shop reads them with the code and the addresses it
 * uses on mainnet. Everything is written with anvil_setCode and anvil_setStorageAt: no
 * transaction, so no block is mined and no dev account's nonce moves, and placing them
 * beside every test's chain costs a few RPC calls.
 *
 * Kept with the chain: on a chain that already has them (a restarted `npm start` whose
 * anvil loaded its saved state), the code is placed again (a changed mock takes effect,
 * its storage kept) but nothing is minted again; the feeds publish 1.00 again, as the
 * ETH/USD feed publishes its start price at every start (a kept round would be stale).
 */

/** Who may blocklist on the mocks (mainnet: USDC's blacklister, USDT's owner): anvil's dev account #0. */
export const TOKEN_MOCK_OWNER: Address = ANVIL_DEV_ACCOUNTS[0];
/** 10,000 tokens (6 decimals), minted once to each of anvil's ten dev accounts. */
export const DEV_TOKEN_GRANT = 10_000n * 10n ** 6n;

const MOCKS: Record<TokenSymbol, { file: string; contract: string }> = {
  USDC: { file: 'mock-usdc.sol', contract: 'MockUSDC' },
  USDT: { file: 'mock-usdt.sol', contract: 'MockUSDT' },
};

/** The storage slots both mocks declare, in this order (their .sol files say so). */
const OWNER_SLOT = 0n;
const BALANCES_SLOT = 1n;
const TOTAL_SUPPLY_SLOT = 3n;

export const compileTokenMock = (symbol: TokenSymbol) => compileSolidity(join(REPO_ROOT, 'scripts/lib', MOCKS[symbol].file), MOCKS[symbol].contract);

export type InstalledToken = { token: Token; minted: boolean };

/**
 * Places mock USDC and USDT at their mainnet addresses with their owner, mints
 * `DEV_TOKEN_GRANT` to each of `accounts` (anvil's ten dev accounts unless told) where the
 * token was not there yet, and places their USD feeds at 1.00.
 */
export async function installTokenMocks(rpcUrl: string, opts: { accounts?: readonly Address[] } = {}): Promise<InstalledToken[]> {
  const client = chainClient(rpcUrl);
  const accounts = opts.accounts ?? ANVIL_DEV_ACCOUNTS;
  return Promise.all(
    MAINNET_TOKENS.map(async (token): Promise<InstalledToken> => {
      const { runtimeBytecode } = await compileTokenMock(token.symbol);
      // The owner slot says whether this chain has the token already (its balances are then kept).
      const owner = await client.getStorageAt({ address: token.address, slot: word(OWNER_SLOT) });
      const fresh = !owner || BigInt(owner) === 0n;
      await client.setCode({ address: token.address, bytecode: runtimeBytecode });
      if (fresh) {
        await client.setStorageAt({ address: token.address, index: word(OWNER_SLOT), value: word(BigInt(TOKEN_MOCK_OWNER)) });
        await mintMockToken(rpcUrl, token, accounts, DEV_TOKEN_GRANT);
      }
      await writeFeedRound(rpcUrl, { feedAddress: token.usdFeed, priceUsd: '1' });
      return { token, minted: fresh };
    }),
  );
}

/**
 * Adds `amount` to each of `accounts`' balances of a mock token and to its total supply,
 * in storage (the mocks have no mint: mainnet's minters and issuers are left out). Emits
 * no Transfer. Not safe beside another mint of the same token at the same time.
 */
export async function mintMockToken(rpcUrl: string, token: Token, accounts: readonly Address[], amount: bigint): Promise<void> {
  const client = chainClient(rpcUrl);
  const slots = accounts.map((account) => mappingSlot(account, BALANCES_SLOT));
  const [supply, ...balances] = await Promise.all([word(TOTAL_SUPPLY_SLOT), ...slots].map((slot) => client.getStorageAt({ address: token.address, slot })));
  await Promise.all([
    ...slots.map((slot, i) => client.setStorageAt({ address: token.address, index: slot, value: word(BigInt(balances[i] ?? '0x0') + amount) })),
    client.setStorageAt({ address: token.address, index: word(TOTAL_SUPPLY_SLOT), value: word(BigInt(supply ?? '0x0') + amount * BigInt(accounts.length)) }),
  ]);
}

/** Where Solidity keeps `mapping(address => ...)`'s entry for `key`: keccak256(key . slot). */
function mappingSlot(key: Address, slot: bigint): Hex {
  return keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, slot]));
}

const word = (value: bigint) => numberToHex(value, { size: 32 });

function chainClient(rpcUrl: string) {
  return createTestClient({ mode: 'anvil', chain: mainnet, transport: http(rpcUrl, { timeout: 10_000, retryCount: 1 }) }).extend(publicActions);
}
