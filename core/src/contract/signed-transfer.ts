import type { Token } from './tokens.ts';

/**
 * Paying a token with one signature (EIP-3009, USDC's `transferWithAuthorization`): the
 * buyer signs the typed data below in the wallet (eth_signTypedData_v4, no transaction)
 * and posts it (POST /api/orders/:id/authorization); the shop submits it from its relay
 * wallet and pays the gas (core/src/relay/). One home for the typed data: the pay page
 * signs it and the api checks the signature against it.
 */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

export type TransferAuthorization = {
  from: `0x${string}`;
  to: `0x${string}`;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: `0x${string}`;
};

/** The EIP-712 domain a token signs authorizations in: its pinned name and version, the chain, the token's address. */
export type AuthorizationDomain = { name: string; version: string; chainId: number; verifyingContract: `0x${string}` };

export function authorizationDomain(token: Pick<Token, 'address' | 'eip712'>, chainId: number): AuthorizationDomain | null {
  if (!token.eip712) return null;
  return { name: token.eip712.name, version: token.eip712.version, chainId, verifyingContract: token.address };
}

/** What a wallet signs (viem's signTypedData / verifyTypedData take it as is). */
export function transferAuthorizationTypedData(domain: AuthorizationDomain, message: TransferAuthorization) {
  return { domain, types: TRANSFER_WITH_AUTHORIZATION_TYPES, primaryType: 'TransferWithAuthorization' as const, message };
}

/** The least time left in an authorization's window when it arrives: the relay needs a few blocks to send it. */
export const MIN_WINDOW_LEFT_SECONDS = 120;
/** How far past its quote's expiry an authorization may stay valid (a wallet's clock, a page open a moment longer). */
export const WINDOW_PAST_QUOTE_SECONDS = 300;

/**
 * The end of the window a buyer signs for a quote (unix seconds): the quote's expiry; in the
 * quote's last minutes, a few minutes past it (within WINDOW_PAST_QUOTE_SECONDS), so the
 * relay still has MIN_WINDOW_LEFT_SECONDS and more to send it. The api takes both.
 */
export function authorizationValidBefore(quoteExpiresAt: Date, now: Date = new Date()): bigint {
  const expires = Math.floor(quoteExpiresAt.getTime() / 1000);
  const least = Math.floor(now.getTime() / 1000) + 2 * MIN_WINDOW_LEFT_SECONDS;
  return BigInt(Math.min(Math.max(expires, least), expires + WINDOW_PAST_QUOTE_SECONDS - 30));
}
