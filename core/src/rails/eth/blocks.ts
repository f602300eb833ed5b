import type { Hash, PublicClient } from 'viem';
import type { BlockRun } from '../../chain/follower.ts';
import { balanceAfter, balancesAfter } from '../../chain/rpc.ts';
import type { Tracer } from '../../chain/trace.ts';
import type { Logger } from '../../infra/logger.ts';
import type { RailWatch } from '../types.ts';
import { addressActivity, type AddressActivity, type ScannedBlock } from './address-activity.ts';
import { watchedActivity, type WatchedActivity } from './watched-activity.ts';

/** What the ETH rail reads in a block: its balances, and what reached the shop's addresses. */
export type EthBlockRead = Pick<ScannedBlock, 'balance' | 'watchedBalances'> & AddressActivity & WatchedActivity;

type Deps = { chain: PublicClient; tracer: Tracer; logger: Logger };

/**
 * ETH moves without leaving a log, so each block is read by balances: the receiving
 * address's and the watched deposit addresses' (one eth_call for all) after the block,
 * fetched ahead with it; once it links, each change is compared with the block's plain
 * transfers, measured from the block before (address-activity.ts, watched-activity.ts).
 */
export async function beginEthBlocks(deps: Deps, watch: RailWatch, checkpoint: Hash): Promise<BlockRun<EthBlockRead>> {
  const { chain } = deps;
  const { receiving, watched } = watch;
  // The balances after the checkpoint's block: where the next block's change is measured from.
  let balance = await balanceAfter(chain, receiving, checkpoint);
  let watchedBalances = await balancesAfter(chain, watched, checkpoint);
  return {
    async fetch(block) {
      const [after, watchedAfter] = await Promise.all([balanceAfter(chain, receiving, block.hash), balancesAfter(chain, watched, block.hash)]);
      return async () => {
        const scanned: ScannedBlock = { ...block, balance: after, watchedBalances: watchedAfter };
        const activity = await addressActivity({ ...deps, own: watch.own }, scanned, balance, receiving);
        const atDeposits = await watchedActivity(deps, scanned, watchedBalances, watched, activity.ownIn);
        balance = after;
        watchedBalances = watchedAfter;
        return { balance: after, watchedBalances: watchedAfter, ...activity, ...atDeposits };
      };
    },
  };
}
