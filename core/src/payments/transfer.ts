import type { PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import type { Db } from '../infra/db.ts';
import type { Logger } from '../infra/logger.ts';
import { indexerHalt } from '../chain/cursor.ts';
import type { Tracer } from '../chain/trace.ts';
import { notFinalReason } from '../chain/transfer-reader.ts';
import type { AssetCode } from '../contract/json-parts.ts';
import { paymentRail, type MinedTransfer, type TransferReading } from '../rails/index.ts';
import { depositSenders } from './deposits.ts';
import { UNTRACEABLE } from './reasons.ts';

export type { MinedTransfer } from '../rails/index.ts';

/**
 * A transfer to the shop as the payment rules see it (DESIGN.md section 5): read from the
 * chain by its rail (core/src/rails/) for the worker's verification and an admin's
 * assignment alike, and judged here: chain 1, receipt succeeded, sent to the receiving
 * address, confirmations, the block still canonical. Nothing here writes; settle.ts
 * decides what to do with it.
 */
export type PaymentReading = { state: 'halted'; reason: string } | TransferReading;

type Deps = { db: Db; chain: PublicClient; config: AppConfig; tracer: Tracer; logger: Logger };

/**
 * The transfer a payment stands for: its transaction, the order's deposit address it
 * reached (null: the receiving address) and the token Transfer log that delivered it (null:
 * a value transfer); and the asset, whose rail reads it. `blockNumber`: the block it was
 * last seen mined in, if any (asked with the transaction: chain/transfer-reader.ts).
 */
export type PaymentKey = { txHash: string; depositAddress: string | null; logIndex: number | null; asset: AssetCode; blockNumber?: bigint | null };

/** The shop's address a payment was sent to: its order's deposit address, or the receiving address. */
export const addressOf = (key: Pick<PaymentKey, 'depositAddress'>, config: AppConfig) => (key.depositAddress ?? config.receivingAddress).toLowerCase();

export async function readPaymentTransfer({ db, chain, config, tracer, logger }: Deps, key: PaymentKey): Promise<PaymentReading> {
  // A node that is not on the shop's chain proves nothing either way: while following is
  // halted, what the node said (or failed to say) does not matter. Both read at once.
  const rail = paymentRail({ config, chain, tracer, logger }, key.asset);
  const read = rail.readTransfer(key.txHash, addressOf(key, config), { ownSenders: depositSenders(db, config.depositFactoryAddress), logIndex: key.logIndex, blockHint: key.blockNumber });
  const [halted, reading] = await Promise.allSettled([indexerHalt(db, config.chainId), read]);
  if (halted.status === 'rejected') throw halted.reason;
  if (halted.value) return { state: 'halted', reason: halted.value.reason };
  if (reading.status === 'rejected') throw reading.reason;
  if (reading.value.state !== 'mined' || key.depositAddress === null) return reading.value;
  // A deposit comes from an exchange's wallet (shared by all its customers): nobody the
  // shop could refund by default or take a signature from. The buyer credits an excess to
  // their balance, or the shop refunds it to a wallet named for it.
  return { state: 'mined', transfer: { ...reading.value.transfer, payer: null } };
}

/** Why a mined transaction moved no value to the shop's `address` (it can never count), or null. */
export function noValueReason(t: MinedTransfer, config: AppConfig, key: Pick<PaymentKey, 'depositAddress'> & { asset?: AssetCode } = { depositAddress: null }): string | null {
  if (t.chainId !== undefined && t.chainId !== config.chainId) return `Not an Ethereum mainnet transaction (chain id ${t.chainId})`;
  if (!t.success) return 'Transaction failed (reverted) on chain';
  if (t.sender.toLowerCase() === config.receivingAddress.toLowerCase()) return "Sent by the shop's own address: its own money, not a payment";
  if (!t.to || t.to.toLowerCase() !== addressOf(key, config)) {
    if (t.untraced) return UNTRACEABLE;
    return key.depositAddress ? "Not sent to this order's deposit address" : "Not sent to the shop's receiving address";
  }
  if (t.valueWei === 0n) return `It moved no ${key.asset ?? 'ETH'} to the shop`;
  return null;
}

/** Why a transfer that reached the shop cannot be counted yet, or null. */
export function notYetReason(t: MinedTransfer, config: AppConfig): string | null {
  return notFinalReason(t, config.paymentConfirmations);
}
