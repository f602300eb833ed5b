import type { Hash, PublicClient } from 'viem';
import { deliveryFromOthers, type OwnSenders, type Tracer } from '../../chain/trace.ts';
import { readTransaction } from '../../chain/transfer-reader.ts';
import type { TransferReading } from '../types.ts';

/**
 * readTransaction, and the ETH the transaction delivered to `address` (top-level, or through
 * internal calls, traced). Calls made by `ownSenders` (the shop's deposit forwarders
 * flushing a sweep) deliver the shop's own money, never a payment: left out.
 */
export async function readTransfer(
  { chain, tracer, ownSenders }: { chain: PublicClient; tracer: Tracer; ownSenders?: OwnSenders },
  hash: string,
  address: string,
  blockHint?: bigint | null,
): Promise<TransferReading> {
  const reading = await readTransaction(chain, hash as Hash, { blockHint });
  if (reading.state === 'unknown' || reading.state === 'receipt-missing') return { state: reading.state };
  if (reading.state === 'pending') return { state: 'pending', from: reading.from, to: reading.to, valueWei: reading.valueWei };
  const { tx } = reading;
  // Sent to another address (a smart-contract wallet, say): what did it pass on to `address`?
  const target = address.toLowerCase();
  const direct = tx.to?.toLowerCase() === target;
  const traced = !direct && tx.success ? await tracer.transaction(hash, target) : undefined;
  const delivered = traced ? ((await deliveryFromOthers(traced, ownSenders)) ?? { ...traced, valueWei: 0n, parts: [], calls: 0 }) : traced;
  const internal = delivered !== undefined && delivered !== null && delivered.valueWei > 0n;
  return {
    state: 'mined',
    transfer: {
      ...tx,
      from: internal ? delivered.from || tx.from : tx.from,
      payer: internal ? delivered.payer : direct ? tx.from : null,
      to: internal ? target : tx.to,
      valueWei: internal ? delivered.valueWei : tx.valueWei,
      internal,
      untraced: delivered === null,
      sender: tx.from,
      calls: internal ? delivered.calls : 1,
    },
  };
}
