import type { Hash, PublicClient } from 'viem';
import type { BlockReader, LinkedBlock } from '../chain/follower.ts';
import type { Tracer } from '../chain/trace.ts';
import type { Logger } from '../infra/logger.ts';
import { createEthRail } from './eth/index.ts';
import { createTokenRail } from './erc20/index.ts';
import type { AssetCode } from '../contract/json-parts.ts';
import { tokenBySymbol } from '../contract/tokens.ts';
import { MAINNET_CHAIN_ID } from '../contract/network.ts';
import type { AssetDeliveries, Rail, RailShop, RailWatch } from './types.ts';

export type { AssetDeliveries, MinedTransfer, PayoutDelivery, Rail, RailDeliveries, RailDelivery, RailInflow, RailShop, RailWatch, TransferReading } from './types.ts';

type RailDeps = { config: { chainId: number; acceptedAssets?: readonly AssetCode[] }; chain: PublicClient; tracer: Tracer; logger: Logger };

/**
 * The rails of the configured chain, in the order their readings are kept: ETH's, then
 * one per accepted token (ACCEPTED_ASSETS), each built from its pinned entry
 * (contract/tokens.ts) by the one ERC-20 rail. A token not accepted has no rail: its
 * transfers are never read as payments (they are recovered: deposits:recover-token).
 */
export function chainRails(deps: RailDeps): Rail[] {
  const tokens = (deps.config.acceptedAssets ?? ['ETH']).filter((a) => a !== 'ETH');
  return [createEthRail(deps) as Rail, ...tokens.map((symbol) => createTokenRail(deps, tokenBySymbol(symbol)) as Rail)];
}

/**
 * The rail a payment (or a refund, a payout) was made on: its asset column's, on the
 * configured chain, accepted now or not (a payment taken while USDC was accepted is
 * still verified after a reorganization, and its refund's payout read, once it is not).
 * An asset the chain has no rail for is an error, never read as ETH.
 */
export function paymentRail(deps: RailDeps, asset: AssetCode): Rail {
  if (asset === 'ETH') return createEthRail(deps) as Rail;
  if (deps.config.chainId !== MAINNET_CHAIN_ID) throw new Error(`no rail for ${asset} on chain ${deps.config.chainId}`);
  return createTokenRail(deps, tokenBySymbol(asset)) as Rail;
}

/** Each rail's reading of a block, in `chainRails` order. */
export type RailReads = unknown[];

/**
 * One reader for the follower from every rail of the chain: the shop's addresses are
 * asked once a run (`watchOf`, only when there are blocks to read), each rail fetches
 * and reads its part of every block.
 */
export function railsReader(rails: Rail[], watchOf: () => Promise<RailWatch>): BlockReader<RailReads> {
  return {
    async begin(checkpoint: Hash) {
      const watch = await watchOf();
      const runs = await Promise.all(rails.map((rail) => rail.beginBlocks(watch, checkpoint)));
      return {
        async fetch(block) {
          const reads = await Promise.all(runs.map((run) => run.fetch(block)));
          return async () => {
            const out: RailReads = [];
            for (const read of reads) out.push(await read());
            return out;
          };
        },
      };
    },
  };
}

/** What every rail read reaching the shop in `linked`, rail after rail, each in its rail's asset. */
export async function railDeliveries(rails: Rail[], linked: LinkedBlock<RailReads>[], shop: RailShop): Promise<AssetDeliveries> {
  const all: AssetDeliveries = { found: [], inflows: [] };
  for (const [i, rail] of rails.entries()) {
    const own = await rail.deliveries(
      linked.map((b) => ({ ...b, read: b.read[i] })),
      shop,
    );
    all.found.push(...own.found.map((d) => ({ ...d, asset: rail.asset })));
    all.inflows.push(...own.inflows.map((i) => ({ ...i, asset: rail.asset })));
  }
  return all;
}
