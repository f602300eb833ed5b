import { encodeFunctionData, serializeSignature, parseSignature, type Address, type Hex, type PublicClient } from 'viem';
import { authorizationDomain, transferAuthorizationTypedData, type TransferAuthorization } from '../../contract/authorization.ts';
import type { Token } from '../../contract/tokens.ts';
import { eip3009Abi } from './abi.ts';

/**
 * EIP-3009 on a token that has it (Token.eip712 set: USDC): the reads and the call the
 * relay makes (core/src/relay/). The call is the `bytes signature` overload of
 * `transferWithAuthorization` (FiatTokenV2_2, abi.ts): a key's 65-byte signature and a
 * smart-contract wallet's (ERC-1271) alike. The token moves the holder's funds only to
 * the `to` the holder signed, whoever sends it.
 */
/** Whether the token takes signed transfers (its EIP-712 domain is pinned). */
export const takesAuthorizations = (token: Token) => token.eip712 !== undefined;

/** A 65-byte signature as the token reads it: `v` 27 or 28 (a wallet may sign with 0 or 1). Longer ones (ERC-1271) pass as they are. */
export function normalizedSignature(signature: Hex): Hex {
  if (signature.length !== 132) return signature;
  return serializeSignature(parseSignature(signature));
}

/** The call data of `transferWithAuthorization(..., signature)`. */
export function transferWithAuthorizationData(auth: TransferAuthorization, signature: Hex): Hex {
  return encodeFunctionData({
    abi: eip3009Abi,
    functionName: 'transferWithAuthorization',
    args: [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, normalizedSignature(signature)],
  });
}

/** Whether the holder's nonce was used (or cancelled) on chain. */
export function authorizationUsed(chain: PublicClient, token: Token, from: Address, nonce: Hex): Promise<boolean> {
  return chain.readContract({ address: token.address, abi: eip3009Abi, functionName: 'authorizationState', args: [from, nonce] });
}

/**
 * Whether `signature` signs `auth` in the token's domain by `auth.from`: recovered for a
 * key; for a smart-contract wallet, its ERC-1271 `isValidSignature` asked (viem's
 * verifyTypedData does both).
 */
export function authorizationSignedBy(chain: PublicClient, token: Token, chainId: number, auth: TransferAuthorization, signature: Hex): Promise<boolean> {
  const domain = authorizationDomain(token, chainId);
  if (!domain) return Promise.resolve(false);
  return chain.verifyTypedData({ address: auth.from, signature, ...transferAuthorizationTypedData(domain, auth) });
}
