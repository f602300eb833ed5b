import type { Hash, PublicClient } from 'viem';
import type { BlockReader, LinkedBlock } from '../chain/follower.ts';
import type { Tracer } from '../chain/trace.ts';
import type { Logger } from '../infra/logger.ts';
import { createEthRail } from './eth/index.ts';
import type { Rail, RailDeliveries, RailShop, RailWatch } from './types.ts';

export type { MinedTransfer, PayoutDelivery, Rail, RailDeliveries, RailDelivery, RailInflow, RailShop, RailWatch, TransferReading } from './types.ts';

type RailDeps = { config: { chainId: number }; chain: PublicClient; tracer: Tracer; logger: Logger };

/**
 * The rails of the configured chain, in the order their readings are kept. One today
 * (ETH); a token is a folder beside eth/ and an entry here.
 */
export function chainRails(deps: RailDeps): Rail[] {
  return [createEthRail(deps) as Rail];
}

/**
 * The rail a payment was made on. Every payment is in ETH until payments name their
 * asset (the next step of docs/architecture.md, "Rails").
 */
export function paymentRail(deps: RailDeps, asset = 'ETH'): Rail {
  const rail = chainRails(deps).find((r) => r.asset === asset);
  if (!rail) throw new Error(`no rail for ${asset} on chain ${deps.config.chainId}`);
  return rail;
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

/** What every rail read reaching the shop in `linked`, rail after rail. */
export async function railDeliveries(rails: Rail[], linked: LinkedBlock<RailReads>[], shop: RailShop): Promise<RailDeliveries> {
  const all: RailDeliveries = { found: [], inflows: [] };
  for (const [i, rail] of rails.entries()) {
    const own = await rail.deliveries(
      linked.map((b) => ({ ...b, read: b.read[i] })),
      shop,
    );
    all.found.push(...own.found);
    all.inflows.push(...own.inflows);
  }
  return all;
}
