import { hexToBigInt } from 'viem';
import type { Logger } from '../../infra/logger.ts';
import type { ScannedBlock } from './address-activity.ts';
import type { Tracer } from '../../chain/trace.ts';

/**
 * Addresses followed beside the main one (the shop's deposit addresses of live orders):
 * their balances after each block (one eth_call for all, rpc.ts balancesAfter) are
 * compared with the plain transfers to them; where they differ, one trace of the block
 * says what reached them through internal calls (an exchange's batched withdrawal, a
 * smart-contract wallet). ETH that even the traces do not explain, or that arrived while
 * the node cannot trace, is an inflow someone must see.
 */
export type WatchedActivity = {
  watched: { address: string; internal: { hash: string; from: string; valueWei: bigint; calls: number }[]; inflowWei: bigint }[];
};

type Deps = { tracer: Tracer; logger: Logger };

/**
 * `flushedOut`: what each address moved on to the followed address in this block (a sweep,
 * address-activity.ts's `ownIn`): a change less than its deposits by that much adds up.
 */
export async function watchedActivity(
  deps: Deps,
  block: ScannedBlock,
  before: bigint[] | null,
  addresses: string[],
  flushedOut: Map<string, bigint> = new Map(),
): Promise<WatchedActivity> {
  const after = block.watchedBalances;
  if (addresses.length === 0) return { watched: [] };
  if (!after || !before) {
    deps.logger.warn({ block: block.number.toString() }, 'the node no longer serves the balances of this block: ETH that reached a deposit address through a contract in it cannot be seen');
    return { watched: [] };
  }
  const direct = new Map<string, { sum: bigint; hashes: Set<string> }>();
  for (const t of block.transactions) {
    const to = t.to?.toLowerCase();
    if (!to) continue;
    const entry = direct.get(to) ?? { sum: 0n, hashes: new Set<string>() };
    entry.sum += hexToBigInt(t.value);
    entry.hashes.add(t.hash.toLowerCase());
    direct.set(to, entry);
  }
  const changed = addresses
    // What arrived: the change, plus what left for the followed address (a sweep of equal
    // size in the same block must not hide a deposit).
    .map((address, i) => ({
      address,
      delta: (after[i] as bigint) - (before[i] as bigint) + (flushedOut.get(address) ?? 0n),
      plain: direct.get(address) ?? { sum: 0n, hashes: new Set<string>() },
    }))
    .filter((a) => a.delta !== a.plain.sum);
  if (changed.length === 0) return { watched: [] };
  const traced = await deps.tracer.blockTo(block, changed.map((a) => a.address));
  return {
    watched: changed.map(({ address, delta, plain }) => {
      const deliveries = traced?.get(address);
      if (!deliveries) return { address, internal: [], inflowWei: delta - plain.sum > 0n ? delta - plain.sum : 0n };
      const all = [...deliveries.values()].reduce((sum, d) => sum + d.valueWei, 0n);
      const internal = [...deliveries]
        .filter(([hash, d]) => !plain.hashes.has(hash) && d.valueWei > 0n)
        .map(([hash, d]) => ({ hash, from: d.from, valueWei: d.valueWei, calls: d.calls }));
      const unexplained = delta - all;
      return { address, internal, inflowWei: unexplained > 0n ? unexplained : 0n };
    }).filter((w) => w.internal.length > 0 || w.inflowWei > 0n),
  };
}
