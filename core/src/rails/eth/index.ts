import type { PublicClient } from 'viem';
import type { Tracer } from '../../chain/trace.ts';
import type { Logger } from '../../infra/logger.ts';
import type { Rail } from '../types.ts';
import { beginEthBlocks, type EthBlockRead } from './blocks.ts';
import { ethDeliveries } from './deliveries.ts';
import { ethPayoutDelivery } from './payout.ts';
import { readTransfer } from './transfer.ts';

/** ETH on the configured chain: paid to the receiving address with the order's tag in the amount's low digits, or to the order's deposit address. */
export function createEthRail(deps: { config: { chainId: number }; chain: PublicClient; tracer: Tracer; logger: Logger }): Rail<EthBlockRead> {
  return {
    id: `eth@${deps.config.chainId}`,
    asset: 'ETH',
    chainId: deps.config.chainId,
    decimals: 18,
    tokenAddress: null,
    quoteBy: 'tag',
    beginBlocks: (watch, checkpoint) => beginEthBlocks(deps, watch, checkpoint),
    deliveries: ethDeliveries,
    payoutDelivery: (tx, wallets, fromShop) => ethPayoutDelivery(deps.tracer, tx, wallets, fromShop),
    readTransfer: (hash, address, opts = {}) => readTransfer({ chain: deps.chain, tracer: deps.tracer, ownSenders: opts.ownSenders }, hash, address, opts.blockHint),
  };
}
