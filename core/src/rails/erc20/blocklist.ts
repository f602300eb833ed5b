import type { Address, PublicClient } from 'viem';
import type { Token } from '../../contract/tokens.ts';
import { blocklistAbis } from './abi.ts';

/**
 * Whether the token's issuer has blocked `address` (USDC `isBlacklisted`, USDT
 * `getBlackListStatus`: Token.blocklist names which), read before the shop pays to it: a
 * transfer to or from a blocked address reverts or is frozen. A node that does not answer
 * throws: the caller refuses to pay rather than guess.
 */
export async function isBlocked(deps: { chain: PublicClient }, token: Token, address: string): Promise<boolean> {
  const abi = blocklistAbis[token.blocklist];
  return deps.chain.readContract({ address: token.address, abi, functionName: token.blocklist, args: [address as Address] } as never) as Promise<boolean>;
}
