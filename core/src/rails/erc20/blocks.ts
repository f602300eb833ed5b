import type { Hash, PublicClient } from 'viem';
import type { BlockRun } from '../../chain/follower.ts';
import type { Token } from '../../contract/tokens.ts';
import type { RailWatch } from '../types.ts';
import { transferLogsInBlock, type TransferLog } from './logs.ts';
import type { TokenBlockRead } from './types.ts';

type Deps = { chain: PublicClient };

/**
 * A token moves only with a Transfer log, so a block is read by its logs: one eth_getLogs
 * by the block's hash for the token's Transfer events, fetched ahead with the block, all
 * of them (not only those to the watched addresses: measured cheaper for a long watch
 * list, and a late payment to an older order's deposit address is found by its recipient,
 * as ETH's plain transfers are; docs/decisions.md, "The token rail"). Once the block links
 * the shop's own money is left out: what the receiving address sends (a refund, a payout)
 * and what the shop's deposit forwarders move to it (a sweep).
 */
export async function beginTokenBlocks(deps: Deps, token: Token, watch: RailWatch, _checkpoint: Hash): Promise<BlockRun<TokenBlockRead>> {
  const { receiving } = watch;
  return {
    async fetch(block) {
      const logs = await transferLogsInBlock(deps.chain, token.address, block.hash);
      return async () => ({ logs: await othersOnly(logs, watch, receiving) });
    },
  };
}

async function othersOnly(logs: TransferLog[], watch: RailWatch, receiving: string): Promise<TransferLog[]> {
  const kept = logs.filter((l) => l.from !== receiving);
  const swept = [...new Set(kept.filter((l) => l.to === receiving).map((l) => l.from))];
  if (swept.length === 0 || !watch.own) return kept;
  const own = await watch.own.senders(swept);
  return own.size === 0 ? kept : kept.filter((l) => !(l.to === receiving && own.has(l.from)));
}
