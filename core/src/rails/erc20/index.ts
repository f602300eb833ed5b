import type { PublicClient } from 'viem';
import type { Token } from '../../contract/tokens.ts';
import type { Rail } from '../types.ts';
import { beginTokenBlocks } from './blocks.ts';
import { tokenDeliveries } from './deliveries.ts';
import { tokenPayoutDelivery } from './payout.ts';
import { readTokenTransfer } from './transfer.ts';
import type { TokenBlockRead } from './types.ts';

export { isBlocked } from './blocklist.ts';
export { offPegReason, onPeg, PriceUnavailableError, tokenPriceUnavailable, tokenToUsdCents, tokenUsdPrice, usdCentsToTokenAmount, type TokenUsd } from './price.ts';
export { simulateTokenTransfer, tokenTransferData, tokenTransferRequest } from './send.ts';
export type { MinedTokenTransfer, TokenBlockRead, TokenDelivery, TokenTransferReading } from './types.ts';

/**
 * An ERC-20 token on the configured chain, built from its entry in the pinned token list
 * (core/src/contract/tokens.ts): paid to the order's deposit address (no tag: a token
 * amount carries none), read from the token's Transfer logs. One function for every
 * token: adding one is an entry in the list, not code.
 */
export function createTokenRail(deps: { config: { chainId: number }; chain: PublicClient }, token: Token): Rail<TokenBlockRead> {
  return {
    id: `${token.symbol.toLowerCase()}@${deps.config.chainId}`,
    asset: token.symbol,
    chainId: deps.config.chainId,
    decimals: token.decimals,
    tokenAddress: token.address,
    quoteBy: 'deposit-address',
    beginBlocks: (watch, checkpoint) => beginTokenBlocks(deps, token, watch, checkpoint),
    deliveries: tokenDeliveries,
    readTransfer: (hash, address, opts = {}) => readTokenTransfer({ chain: deps.chain, ...(opts.ownSenders ? { ownSenders: opts.ownSenders } : {}) }, token, hash, address, opts),
    payoutDelivery: (tx, wallets, fromShop) => tokenPayoutDelivery(deps.chain, token, tx, wallets, fromShop),
  };
}
