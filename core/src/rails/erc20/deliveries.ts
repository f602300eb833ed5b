import type { LinkedBlock } from '../../chain/follower.ts';
import type { RailDeliveries, RailShop } from '../types.ts';
import type { TokenBlockRead, TokenDelivery } from './types.ts';

/**
 * What reached the shop in a token in linked blocks: each Transfer log to the receiving
 * address, or to an order's deposit address (one lookup of the blocks' recipients, as for
 * ETH's plain transfers), is a delivery of its own, identified by its transaction and log
 * index. The payer is the log's `from`: a token moves from its holder's own balance,
 * whoever signed the transaction. A token leaves no value that no log explains: no inflows.
 */
export async function tokenDeliveries(linked: LinkedBlock<TokenBlockRead>[], shop: RailShop): Promise<RailDeliveries & { found: TokenDelivery[] }> {
  const { receiving } = shop;
  const recipients = [...new Set(linked.flatMap((b) => b.read.logs.map((l) => l.to).filter((to) => to !== receiving)))];
  const deposits = recipients.length > 0 ? await shop.depositAddressesAmong(recipients) : new Set<string>();
  const found: TokenDelivery[] = [];
  for (const block of linked) {
    const sentBy = new Map(block.transactions.map((t) => [t.hash.toLowerCase(), t.to?.toLowerCase() ?? null]));
    for (const log of block.read.logs) {
      const toReceiving = log.to === receiving;
      if (!toReceiving && !deposits.has(log.to)) continue;
      // A Transfer of nothing (anyone may `transferFrom` 0 from anyone, no allowance needed)
      // delivers nothing and names a sender who never sent: no payment, as a zero-value ETH transaction.
      if (log.amount === 0n) continue;
      found.push({
        hash: log.txHash,
        logIndex: log.logIndex,
        from: log.from,
        payer: log.from,
        amount: log.amount,
        // The transaction called another contract that moved the tokens (a batch, a wallet).
        viaContract: sentBy.get(log.txHash) !== log.token,
        depositAddress: toReceiving ? null : log.to,
        block,
      });
    }
  }
  return { found, inflows: [] };
}
