import type { Address } from 'viem';

/**
 * The ERC-20 tokens the shop knows on Ethereum mainnet (chain id 1: `MAINNET_CHAIN_ID`), pinned in this one place: the rails
 * (core/src/rails/), the pay page and the local chain's mocks (scripts/lib/token-mocks.ts)
 * read them here. Browser-safe: constants only. Addresses are EIP-55 checksummed, as
 * viem's `getAddress` writes them (a test keeps them so).
 *
 * `usdFeed` is the Chainlink <token>/USD aggregator (8 decimals) that says whether the
 * token holds its peg; it publishes at least once a `usdFeedHeartbeatSeconds` (mainnet's
 * USDC/USD and USDT/USD: a day, or on a 0.25% move), so an answer is trusted for that long
 * and an hour more (`usdFeedMaxAgeSeconds`), not for ETH/USD's hour. `eip712` is the
 * domain a token signs EIP-3009 authorizations in (USDC's `transferWithAuthorization`),
 * with the chain id and the token's address. `blocklist` is the issuer's read of whether
 * an address is frozen (USDC `isBlacklisted(address)`, USDT `getBlackListStatus(address)`):
 * read before the shop pays to an address.
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
  /** The oldest feed answer trusted, in seconds: the feed's heartbeat and an hour's grace. */
  usdFeedMaxAgeSeconds: number;
  eip712?: { name: string; version: string };
  /** The issuer's view function that says whether an address is blocked: `<name>(address) returns (bool)`. */
  blocklist: 'isBlacklisted' | 'getBlackListStatus';
};

export const MAINNET_TOKENS = [
  {
    symbol: 'USDC',
    name: 'USD Coin',
    address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    decimals: 6,
    usdFeed: '0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6',
    usdFeedDecimals: 8,
    usdFeedMaxAgeSeconds: 90_000,
    eip712: { name: 'USD Coin', version: '2' },
    blocklist: 'isBlacklisted',
  },
  {
    symbol: 'USDT',
    name: 'Tether USD',
    address: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    decimals: 6,
    usdFeed: '0x3E7d1eAB13ad0104d2750B8863b489D65364e32D',
    usdFeedDecimals: 8,
    usdFeedMaxAgeSeconds: 90_000,
    blocklist: 'getBlackListStatus',
  },
] as const satisfies readonly Token[];

export const TOKEN_SYMBOLS: readonly TokenSymbol[] = MAINNET_TOKENS.map((t) => t.symbol);

/** The mainnet token of that symbol. */
export function tokenBySymbol(symbol: TokenSymbol): Token {
  const token = MAINNET_TOKENS.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`no token ${symbol}`);
  return token;
}

/** Smallest units per whole one of an asset, as a power of ten: ETH's 18 (wei), a token's pinned decimals. */
export function assetDecimals(asset: 'ETH' | TokenSymbol): number {
  return asset === 'ETH' ? 18 : tokenBySymbol(asset).decimals;
}
