import type { PublicClient } from 'viem';
import type { Tx } from '../books/ledger.ts';
import type { AssetCode } from '../contract/json-parts.ts';
import { tokenBySymbol } from '../contract/tokens.ts';
import { conflict } from '../infra/errors.ts';
import { isBlocked } from '../rails/erc20/index.ts';

/**
 * A token refund is never owed to an address its issuer blocks (USDC `isBlacklisted`,
 * USDT `getBlackListStatus`): a transfer there reverts, or freezes the tokens for good.
 * Read where a refund's wallet is set (its creation, a new wallet signed for), inside the
 * writing transaction: a blocked wallet refuses the whole request, and nothing is created
 * or changed. A node that does not answer refuses too (isBlocked throws): never a guess.
 */
export const blockedWalletMessage = (asset: AssetCode, wallet: string) =>
  `${wallet} is on the ${asset} issuer's blocklist: ${asset} sent there cannot arrive. Name another wallet for this refund`;

export async function refuseBlockedWallet(chain: PublicClient, asset: AssetCode, wallet: string): Promise<void> {
  if (asset === 'ETH') return;
  if (await isBlocked({ chain }, tokenBySymbol(asset), wallet)) throw conflict(blockedWalletMessage(asset, wallet));
}

/** `afterCreate` of a refund request, with the new refunds' wallets read against their issuers' blocklists first. */
export function screeningRefunds<T>(chain: PublicClient, afterCreate?: (tx: Tx, refundIds: string[]) => Promise<T>) {
  return async (tx: Tx, refundIds: string[]): Promise<T | undefined> => {
    const tokens = await tx.refund.findMany({ where: { id: { in: refundIds }, asset: { not: 'ETH' } }, select: { asset: true, wallet: true } });
    for (const r of tokens) await refuseBlockedWallet(chain, r.asset, r.wallet);
    return afterCreate?.(tx, refundIds);
  };
}
