import type { Hash, PublicClient } from 'viem';
import type { Token } from '../../contract/tokens.ts';
import type { PayoutDelivery } from '../types.ts';
import { receiptTransferLogs } from './transfer.ts';

/**
 * What a payout transaction delivered in `token` to `wallets`, read from its Transfer logs
 * (never from `transfer`'s return value: USDT's returns nothing), and how much of it came
 * from the shop (`fromShop`: the log's `from` is one of its payout addresses; a token
 * moves from its holder's balance, so the holder, not the signer, is who paid). Null while
 * the node serves no receipt.
 */
export async function tokenPayoutDelivery(
  chain: PublicClient,
  token: Token,
  tx: { hash: Hash },
  wallets: string[],
  fromShop: (address: string) => boolean,
): Promise<PayoutDelivery | null> {
  const receipt = await receiptTransferLogs(chain, token, tx.hash);
  if (!receipt) return null;
  const { logs } = receipt;
  const to = new Set(wallets.map((w) => w.toLowerCase()));
  let toWallet = 0n;
  let sent = 0n;
  for (const log of logs.filter((l) => to.has(l.to))) {
    toWallet += log.amount;
    if (fromShop(log.from)) sent += log.amount;
  }
  return { toWallet, sent };
}
