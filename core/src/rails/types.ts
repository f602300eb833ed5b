import type { Hash } from 'viem';
import type { BlockRun, LinkedBlock } from '../chain/follower.ts';
import type { RpcBlock } from '../chain/rpc.ts';
import type { OwnMoney, OwnSenders } from '../chain/trace.ts';
import type { MinedTransaction } from '../chain/transfer-reader.ts';
import type { AssetCode } from '../contract/json-parts.ts';

/**
 * A rail is one asset on one chain (`eth@1`; `usdc@1` next): everything the shop must
 * know to be paid in it. It owns its units and decimals, how a quote asks for it (a tag
 * in the amount's low digits, or the order's own deposit address), and what a block
 * shows it delivered. The block follower (chain/follower.ts) links blocks for one chain
 * and asks that chain's rails what to read in each; payments ask the rail, never the
 * asset's own terms. docs/architecture.md, "Rails".
 */
export type Rail<R = unknown> = {
  /** `<asset>@<chain id>`, lower case: `eth@1`. */
  id: string;
  /** The asset's code as buyers and the books name it (the database's `Asset`): `ETH`. */
  asset: AssetCode;
  chainId: number;
  /** Smallest units per whole one: 10^decimals (18 for ETH). */
  decimals: number;
  /** The token contract; null for the chain's own coin. */
  tokenAddress: `0x${string}` | null;
  /** How a quote says which order a transfer pays: a tag in the amount's low digits (to the receiving address), or the order's deposit address. */
  quoteBy: 'tag' | 'deposit-address';
  /**
   * A run of the follower from the checkpoint's block: what this rail reads in each block
   * (fetched ahead, read in order; see BlockReader).
   */
  beginBlocks(watch: RailWatch, checkpoint: Hash): Promise<BlockRun<R>>;
  /**
   * What reached the shop in linked blocks, as this rail reads them: transfers to the
   * receiving address or to a deposit address (which of a block's recipients are deposit
   * addresses the consumer answers), and what arrived that no transfer explains.
   */
  deliveries(linked: LinkedBlock<R>[], shop: RailShop): Promise<RailDeliveries>;
  /**
   * One transaction, and what it delivered to `address` in this rail. Calls made by
   * `ownSenders` (the shop's deposit forwarders flushing a sweep) deliver the shop's own
   * money, never a payment: left out. `logIndex`: the one Transfer log a token payment is
   * (a payment is keyed by it: one transaction's two logs are two payments, each its own
   * amount, never the transaction's sum twice); a value transfer has none. `blockHint`:
   * the block it was last seen mined in (chain/transfer-reader.ts readTransaction).
   */
  readTransfer(hash: string, address: string, opts?: ReadTransferOptions): Promise<TransferReading>;
  /**
   * What a payout transaction of the shop's delivered to `wallets` in this rail, and how
   * much of it the shop sent (`fromShop`: one of its payout addresses); null when the node
   * cannot show it (a contract it cannot trace).
   */
  payoutDelivery(tx: { hash: `0x${string}`; from: string; to: string | null; value: bigint }, wallets: string[], fromShop: (address: string) => boolean): Promise<PayoutDelivery | null>;
};

export type ReadTransferOptions = { ownSenders?: OwnSenders; logIndex?: number | null; blockHint?: bigint | null };

/** What a payout delivered to its wallets, in the rail's smallest units, and how much of it came from the shop. */
export type PayoutDelivery = { toWallet: bigint; sent: bigint };

/**
 * A mined transaction read for what it delivered to one address: the transaction's
 * fields, with `from`, `to` and `valueWei` read as that delivery.
 */
export type MinedTransfer = MinedTransaction & {
  /** Who sent the value: the transaction's sender, or the contract (a smart wallet) whose (first) internal call paid. */
  from: string;
  /**
   * The one address that sent all of it from its own funds (trace.ts, Delivery.payer): the
   * transaction's sender for a plain transfer; null when no single address did. Only it
   * may sign a claim or a refund's new wallet, and only it is refunded by default.
   */
  payer: string | null;
  /** The address when value reached it (top-level or internal), else the transaction's recipient. */
  to: string | null;
  /** The value that reached the address (the transaction's value when it did not). */
  valueWei: bigint;
  /** It arrived through internal calls (a smart-contract wallet), read from the node's traces. */
  internal: boolean;
  /** The transaction's recipient is another address and the node could not trace what it passed on. */
  untraced: boolean;
  /** The account that signed the transaction. */
  sender: string;
  /** In how many calls the value reached the address: more than one (a batch) cannot be told apart by tag. */
  calls: number;
};

export type TransferReading =
  | { state: 'unknown' }
  | { state: 'pending'; from: string; to: string | null; valueWei: bigint }
  /** The node says it is mined but serves no receipt yet (a replica catching up). */
  | { state: 'receipt-missing' }
  | { state: 'mined'; transfer: MinedTransfer };
/** What the shop's addresses on a chain are, for one run of the follower. */
export type RailWatch = {
  /** The receiving address, lower case. */
  receiving: string;
  /** Deposit addresses of live orders (lower case): what reaches them through contracts is read too. */
  watched: string[];
  /** The shop's own money reaching the receiving address (sweeps of its deposit addresses): never a payment. */
  own?: OwnMoney;
};

/** What the rails ask the shop while reading deliveries. */
export type RailShop = {
  /** The receiving address, lower case. */
  receiving: string;
  /** Which of `addresses` are orders' deposit addresses (lower case). */
  depositAddressesAmong(addresses: string[]): Promise<Set<string>>;
};

/** A transfer that reached one of the shop's addresses: to the receiving address (`depositAddress` null) or to an order's deposit address. */
export type RailDelivery = {
  hash: string;
  from: string;
  /** Who paid, when one sender is known (a refund goes back there); null through a contract that mixes several, or to a deposit address. */
  payer: string | null;
  /** In the rail's smallest units. */
  amount: bigint;
  /** The token `Transfer` log that delivered it (with the hash, the payment's key); null for a value transfer. */
  logIndex: number | null;
  viaContract: boolean;
  depositAddress: string | null;
  block: RpcBlock;
};

/** Value that reached an address in a block and no transfer the node could show explains. */
export type RailInflow = { block: RpcBlock; amount: bigint; depositAddress: string | null };

export type RailDeliveries = { found: RailDelivery[]; inflows: RailInflow[] };

/** What every rail of a chain delivered, each named by its asset (`Rail.asset`). */
export type AssetDeliveries = { found: (RailDelivery & { asset: AssetCode })[]; inflows: (RailInflow & { asset: AssetCode })[] };
