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
  const args = [address as Address] as const;
  switch (token.blocklist) {
    case 'isBlacklisted':
      return deps.chain.readContract({ address: token.address, abi: blocklistAbis.isBlacklisted, functionName: 'isBlacklisted', args });
    case 'getBlackListStatus':
      return deps.chain.readContract({ address: token.address, abi: blocklistAbis.getBlackListStatus, functionName: 'getBlackListStatus', args });
  }
}
