import type { RailDelivery, MinedTransfer } from '../types.ts';
import type { TransferLog } from './logs.ts';

/**
 * A token delivery: one Transfer log, so one transaction may hold several (a batch paying
 * two orders is two deliveries). Identified by the transaction hash and `logIndex`, the
 * log's index in its block. The Rail's RailDelivery lacks the index until payments are
 * keyed by it (issue 37, step 2): this extension is what the integrator folds in.
 */
export type TokenDelivery = RailDelivery & { logIndex: number };

/** What the token rail reads in a block: its Transfer logs that may concern the shop. */
export type TokenBlockRead = { logs: TransferLog[] };

/**
 * A token transaction read for what it delivered to one address: MinedTransfer (valueWei
 * is the tokens' sum, in smallest units) and each Transfer log that made it up.
 */
export type MinedTokenTransfer = MinedTransfer & { logs: Pick<TransferLog, 'logIndex' | 'from' | 'amount'>[] };

export type TokenTransferReading =
  | { state: 'unknown' }
  | { state: 'pending'; from: string; to: string | null; valueWei: bigint }
  | { state: 'receipt-missing' }
  | { state: 'mined'; transfer: MinedTokenTransfer };
