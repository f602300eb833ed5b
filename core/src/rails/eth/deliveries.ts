import { hexToBigInt } from 'viem';
import type { LinkedBlock } from '../../chain/follower.ts';
import type { RailDeliveries, RailDelivery, RailShop } from '../types.ts';
import type { EthBlockRead } from './blocks.ts';

/**
 * What reached the shop in ETH in linked blocks: plain transfers to the receiving address
 * (the shop's own address sending to itself pays nothing), internal ones the traces
 * showed, what reached a watched deposit address through a contract (its order's, with
 * no single payer), then plain transfers to any order's deposit address, whatever their
 * amount (one lookup of the blocks' recipients). A deposit's sender is an exchange's
 * wallet, not a payer the shop refunds or takes a signature from.
 */
export async function ethDeliveries(linked: LinkedBlock<EthBlockRead>[], shop: RailShop): Promise<RailDeliveries> {
  const { receiving } = shop;
  const found: RailDelivery[] = [];
  const inflows: RailDeliveries['inflows'] = [];
  for (const block of linked) {
    const { read } = block;
    for (const tx of block.transactions) {
      if (tx.to && tx.to.toLowerCase() === receiving && tx.from.toLowerCase() !== receiving) {
        found.push({ hash: tx.hash, from: tx.from, payer: tx.from, amount: hexToBigInt(tx.value), logIndex: null, viaContract: false, depositAddress: null, block });
      }
    }
    for (const t of read.internal) found.push({ hash: t.hash, from: t.from, payer: t.payer, amount: t.valueWei, logIndex: null, viaContract: true, depositAddress: null, block });
    if (read.inflowWei > 0n) inflows.push({ block, amount: read.inflowWei, depositAddress: null });
    for (const w of read.watched) {
      for (const t of w.internal) found.push({ hash: t.hash, from: t.from, payer: null, amount: t.valueWei, logIndex: null, viaContract: true, depositAddress: w.address, block });
      if (w.inflowWei > 0n) inflows.push({ block, amount: w.inflowWei, depositAddress: w.address });
    }
  }
  const candidates = linked.flatMap((block) => block.transactions.filter((t) => t.to && hexToBigInt(t.value) > 0n).map((t) => ({ t, block })));
  const deposits = candidates.length > 0 ? await shop.depositAddressesAmong(candidates.map(({ t }) => t.to as string)) : new Set<string>();
  for (const { t, block } of candidates) {
    const to = (t.to as string).toLowerCase();
    if (deposits.has(to)) found.push({ hash: t.hash, from: t.from, payer: null, amount: hexToBigInt(t.value), logIndex: null, viaContract: false, depositAddress: to, block });
  }
  return { found, inflows };
}
