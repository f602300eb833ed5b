import type { Hash } from 'viem';
import { isMethodUnsupported, isStateUnavailable } from '../../chain/errors.ts';
import type { Tracer } from '../../chain/trace.ts';
import type { PayoutDelivery } from '../types.ts';

/**
 * What an ETH payout transaction delivered to `wallets`, and how much of that the shop
 * sent (`fromShop`: one of its payout addresses): its value when sent straight to one of
 * them; else what its internal calls passed on (a multisig's payout), traced. Null when
 * it went through a contract the node cannot trace.
 */
export async function ethPayoutDelivery(
  tracer: Tracer,
  tx: { hash: Hash; from: string; to: string | null; value: bigint },
  wallets: string[],
  fromShop: (address: string) => boolean,
): Promise<PayoutDelivery | null> {
  const signedByShop = fromShop(tx.from);
  if (tx.to && wallets.includes(tx.to.toLowerCase())) return { toWallet: tx.value, sent: signedByShop ? tx.value : 0n };
  let sent = 0n;
  let toWallet = 0n;
  for (const wallet of wallets) {
    let delivered;
    try {
      delivered = await tracer.transaction(tx.hash, wallet);
    } catch (err) {
      if (!isStateUnavailable(err) && !isMethodUnsupported(err)) throw err;
      delivered = null;
    }
    if (delivered === null) return null;
    for (const part of delivered.parts) {
      toWallet += part.valueWei;
      if (signedByShop || fromShop(part.from)) sent += part.valueWei;
    }
  }
  return { toWallet, sent };
}
