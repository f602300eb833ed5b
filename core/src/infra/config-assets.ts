import { z } from 'zod';
import { ASSETS } from '../contract/json-parts.ts';
import { MAINNET_CHAIN_ID } from '../contract/network.ts';

/**
 * ACCEPTED_ASSETS: the assets buyers may pay in (docs/architecture.md, "Rails"), ETH
 * always, and the pinned tokens of core/src/contract/tokens.ts named here. Comma-separated.
 */
export const acceptedAssets = z
  .string()
  .trim()
  .default('ETH')
  .transform((v) => [...new Set(v.split(',').map((a) => a.trim().toUpperCase()).filter(Boolean))])
  .pipe(z.array(z.enum(ASSETS)).refine((a) => a.includes('ETH'), 'must include ETH (for example ETH,USDC,USDT)'));

/** The tokens' contracts and feeds are pinned on Ethereum mainnet (contract/tokens.ts) and the local chain that copies it. */
export function acceptedOnChain(env: { ACCEPTED_ASSETS: string[]; CHAIN_ID: number }, ctx: z.RefinementCtx): void {
  const tokens = env.ACCEPTED_ASSETS.filter((a) => a !== 'ETH');
  if (tokens.length > 0 && env.CHAIN_ID !== MAINNET_CHAIN_ID) {
    ctx.addIssue({ code: 'custom', path: ['ACCEPTED_ASSETS'], message: `${tokens.join(' and ')} are pinned on Ethereum mainnet (chain id 1) only, not chain ${env.CHAIN_ID}` });
  }
}
