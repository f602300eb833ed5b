import { hexToBigInt, type PublicClient } from 'viem';
import type { Logger } from '../../infra/logger.ts';
import { isStateUnavailable } from '../../chain/errors.ts';
import type { RpcBlock } from '../../chain/rpc.ts';
import { withoutOwnParts, type Delivery, type OwnMoney, type Tracer } from '../../chain/trace.ts';

/** A block as the follower reads it: its transactions, and the followed address's balance after it (null when the node no longer serves that state). */
export type ScannedBlock = RpcBlock & {
  balance: bigint | null;
  /** The watched addresses' balances after it, in the run's order (null when the node no longer serves that state). */
  watchedBalances: bigint[] | null;
};

/**
 * What reached the address in a block beyond plain transfers: internal ones, ETH nothing
 * explains, and what each of its own senders moved to it (a sweep: by deposit address).
 */
export type AddressActivity = {
  internal: { hash: string; from: string; payer: string | null; valueWei: bigint }[];
  inflowWei: bigint;
  ownIn: Map<string, bigint>;
};

type Deps = { chain: PublicClient; tracer: Tracer; logger: Logger; own?: OwnMoney };

/**
 * Deliveries less the parts the address's own senders made (a sweep of the shop's deposit
 * addresses is its own money), and what each own sender moved.
 */
async function othersOnly(deps: Deps, deliveries: Map<string, Delivery>): Promise<{ others: Map<string, Delivery>; ownIn: Map<string, bigint> }> {
  const ownIn = new Map<string, bigint>();
  if (!deps.own) return { others: deliveries, ownIn };
  const callers = [...new Set([...deliveries.values()].flatMap((d) => d.parts.map((p) => p.from.toLowerCase())))];
  if (callers.length === 0) return { others: deliveries, ownIn };
  const own = await deps.own.senders(callers);
  if (own.size === 0) return { others: deliveries, ownIn };
  const others = new Map<string, Delivery>();
  for (const [hash, d] of deliveries) {
    for (const p of d.parts) if (own.has(p.from.toLowerCase())) ownIn.set(p.from.toLowerCase(), (ownIn.get(p.from.toLowerCase()) ?? 0n) + p.valueWei);
    const rest = withoutOwnParts(d, own);
    if (rest) others.set(hash, rest);
  }
  return { others, ownIn };
}

/**
 * Does the address's balance change in this block add up with the plain transfers to
 * it? When it does not (a smart-contract wallet paid through an internal call, a transfer
 * reverted, the address itself sent something), the block's traces say what arrived and
 * from which transaction; ETH that even they do not explain (or that arrived while the
 * node cannot trace) is an inflow someone must see, never nothing. Transactions the
 * address sent itself are never deliveries to it (change coming back is its own money),
 * but they count in the arithmetic. `before` is the balance after the parent block.
 */
export async function addressActivity(deps: Deps, block: ScannedBlock, before: bigint | null, address: string): Promise<AddressActivity> {
  const none: AddressActivity = { internal: [], inflowWei: 0n, ownIn: new Map() };
  const toAddress = block.transactions.filter((t) => t.to?.toLowerCase() === address);
  const sent = block.transactions.filter((t) => t.from.toLowerCase() === address);
  const ownHashes = new Set(sent.map((t) => t.hash.toLowerCase()));
  const directHashes = new Set(toAddress.map((t) => t.hash.toLowerCase()));
  const internalOf = (deliveries: Map<string, Delivery>) =>
    [...deliveries]
      .filter(([hash, d]) => !directHashes.has(hash) && !ownHashes.has(hash) && d.valueWei > 0n)
      .map(([hash, d]) => ({ hash, from: d.from, payer: d.payer, valueWei: d.valueWei }));
  if (block.balance === null || before === null) {
    // The node no longer serves the state of this block (a pruned node, a follower far
    // behind): nothing to compare with, so the block's traces are read. A node that
    // cannot trace it either (a pruned node re-executes nothing) leaves it unseen: said
    // in the log, and README says which node the shop needs.
    const deliveries = await deps.tracer.block(block, address).catch((err: unknown) => {
      if (isStateUnavailable(err)) return null;
      throw err;
    });
    if (deliveries) {
      const { others, ownIn } = await othersOnly(deps, deliveries);
      return { internal: internalOf(others), inflowWei: 0n, ownIn };
    }
    deps.logger.warn(
      { block: block.number.toString() },
      'the node serves neither the balance nor the traces of this block: ETH that reached the shop through an internal call in it cannot be seen (use a node that keeps the state of the blocks indexed, or one that traces)',
    );
    return none;
  }
  const delta = block.balance - before;
  const directSum = toAddress.reduce((sum, t) => sum + hexToBigInt(t.value), 0n);
  if (sent.length === 0 && delta === directSum) return none;
  const spent = await spentInBlock(deps.chain, block, address);
  const deliveries = await deps.tracer.block(block, address);
  if (!deliveries) {
    // No traces: what the plain transfers and the address's own money (sweeps, told by
    // their events) do not explain is recorded as an inflow.
    const ownIn = deps.own ? await deps.own.movedIn(block) : new Map<string, bigint>();
    const ownWei = [...ownIn.values()].reduce((sum, v) => sum + v, 0n);
    const unexplained = delta + spent - directSum - ownWei;
    return { internal: [], inflowWei: unexplained > 0n ? unexplained : 0n, ownIn };
  }
  // Every traced delivery explains the balance (own money included); only others' are payments.
  const traced = [...deliveries.values()].reduce((sum, d) => sum + d.valueWei, 0n);
  const unexplained = delta + spent - traced;
  const { others, ownIn } = await othersOnly(deps, deliveries);
  return { internal: internalOf(others), inflowWei: unexplained > 0n ? unexplained : 0n, ownIn };
}

/**
 * What the address paid out of its own balance in the block, as far as the block shows:
 * each transaction it sent, its fee and (when it succeeded) its value. A contract at the
 * address paying through internal calls is not in it (only traces show those).
 */
export async function spentInBlock(chain: PublicClient, block: Pick<RpcBlock, 'transactions'>, address: string): Promise<bigint> {
  let spent = 0n;
  for (const t of block.transactions.filter((t) => t.from.toLowerCase() === address.toLowerCase())) {
    const receipt = await chain.getTransactionReceipt({ hash: t.hash });
    spent += receipt.gasUsed * receipt.effectiveGasPrice + (receipt.status === 'success' ? hexToBigInt(t.value) : 0n);
  }
  return spent;
}
