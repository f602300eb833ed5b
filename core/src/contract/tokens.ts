import type { Address } from 'viem';

/**
 * The ERC-20 tokens the shop knows on Ethereum mainnet (chain id 1: `MAINNET_CHAIN_ID`), pinned in this one place: the rails
 * (core/src/rails/), the pay page and the local chain's mocks (scripts/lib/token-mocks.ts)
 * read them here. Browser-safe: constants only. Addresses are EIP-55 checksummed, as
 * viem's `getAddress` writes them (a test keeps them so).
 *
 * `usdFeed` is the Chainlink <token>/USD aggregator (8 decimals) that says whether the
 * token holds its peg. `eip712` is the domain a token signs EIP-3009 authorizations in
 * (USDC's `transferWithAuthorization`), with the chain id and the token's address.
 */
export type TokenSymbol = 'USDC' | 'USDT';

export type Token = {
  symbol: TokenSymbol;
  /** The token's `name()` on mainnet. */
  name: string;
  address: Address;
  decimals: number;
  usdFeed: Address;
  usdFeedDecimals: number;
  eip712?: { name: string; version: string };
};

export const MAINNET_TOKENS = [
  {
    symbol: 'USDC',
    name: 'USD Coin',
    address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    decimals: 6,
    usdFeed: '0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6',
    usdFeedDecimals: 8,
    eip712: { name: 'USD Coin', version: '2' },
  },
  {
    symbol: 'USDT',
    name: 'Tether USD',
    address: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    decimals: 6,
    usdFeed: '0x3E7d1eAB13ad0104d2750B8863b489D65364e32D',
    usdFeedDecimals: 8,
  },
] as const satisfies readonly Token[];

export const TOKEN_SYMBOLS: readonly TokenSymbol[] = MAINNET_TOKENS.map((t) => t.symbol);

/** The mainnet token of that symbol. */
export function tokenBySymbol(symbol: TokenSymbol): Token {
  const token = MAINNET_TOKENS.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`no token ${symbol}`);
  return token;
}
