import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { address, decimalAmount, privateKey } from './config-fields.ts';

/**
 * The relay of buyers' signed USDC payments (core/src/relay/, docs/decisions.md "Paying in
 * USDC with one signature"): its variables, the checks of its wallet against the others,
 * and what the app reads of them.
 */
export const relayEnv = {
  // Relaying buyers' signed USDC authorizations (core/src/relay/): the relay wallet, its own key
  // (RELAY_PRIVATE_KEY) or an external signer behind the node (RELAY_ADDRESS); neither: off,
  // and the pay page offers no signature. It shares the sweeper's fee ceiling and 24-hour budget.
  RELAY_PRIVATE_KEY: privateKey.optional(),
  RELAY_ADDRESS: address.optional(),
  // The most the shop pays in gas for one relayed payment, in dollars (its worst case: gas limit x max fee).
  RELAY_MAX_GAS_USD: decimalAmount.default('3'),
  // A relay transaction not mined this long after it was sent is replaced at a higher fee (same nonce).
  RELAY_REPLACE_AFTER_MS: z.coerce.number().int().min(200).default(180_000),
  // How often a relay job looks again at what it waits for (the fee, the budget, its transaction).
  RELAY_RETRY_MS: z.coerce.number().int().min(100).default(10_000),
  // A buyer whose authorizations failed this many times in 24 hours (the USDC moved away before
  // the shop sent them: the shop paid or risked the gas) may not send another until the oldest is a day old.
  RELAY_FAILURES_PER_USER_PER_DAY: z.coerce.number().int().min(1).max(100).default(2),
};

type RelayEnv = {
  NODE_ENV?: string;
  RELAY_PRIVATE_KEY?: string;
  RELAY_ADDRESS?: string;
  SWEEPER_PRIVATE_KEY?: string;
  SWEEPER_ADDRESS?: string;
  PAYOUT_ADDRESSES?: unknown;
};

/** A key's account or the external signer's address, lower-cased; undefined when neither is set (or the key is malformed: its own check says so). */
function walletOf(key: string | undefined, signer: string | undefined): string | undefined {
  const parsed = privateKey.safeParse(key);
  return (parsed.success ? privateKeyToAccount(parsed.data as `0x${string}`).address : signer)?.toLowerCase();
}

export function relayWalletChecks(env: RelayEnv, ctx: z.RefinementCtx): void {
  if (env.RELAY_PRIVATE_KEY && env.RELAY_ADDRESS) {
  ctx.addIssue({ code: 'custom', path: ['RELAY_ADDRESS'], message: 'set RELAY_PRIVATE_KEY (signed here) or RELAY_ADDRESS (an external signer), not both' });
  }
  // The relay's own nonces: one wallet shared with the sweeper would let a stuck transaction of either hold the other's.
  const relay = walletOf(env.RELAY_PRIVATE_KEY, env.RELAY_ADDRESS);
  const sweeperWallet = walletOf(env.SWEEPER_PRIVATE_KEY, env.SWEEPER_ADDRESS);
  if (relay && relay === sweeperWallet) {
  ctx.addIssue({ code: 'custom', path: [env.RELAY_PRIVATE_KEY ? 'RELAY_PRIVATE_KEY' : 'RELAY_ADDRESS'], message: 'the relay wallet must not be the sweeper\'s gas wallet: give it its own' });
  }
  if (env.NODE_ENV === 'production' && relay && Array.isArray(env.PAYOUT_ADDRESSES) && env.PAYOUT_ADDRESSES.some((a) => String(a).toLowerCase() === relay)) {
  ctx.addIssue({ code: 'custom', path: [env.RELAY_PRIVATE_KEY ? 'RELAY_PRIVATE_KEY' : 'RELAY_ADDRESS'], message: 'the relay wallet must not be one of PAYOUT_ADDRESSES' });
  }
}

/**
 * The relay of signed USDC authorizations (core/src/relay/): its own wallet, never the
 * sweeper's (a stuck relay transaction must not hold the sweeps' nonces, nor a sweep the
 * relay's), its per-payment gas cap and the buyer's limit. `relayAddress` null: off.
 */
export function relayConfig(env: z.infer<z.ZodObject<typeof relayEnv>>) {
  const key = env.RELAY_PRIVATE_KEY as `0x${string}` | undefined;
  const relayAddress = (key ? privateKeyToAccount(key).address : env.RELAY_ADDRESS)?.toLowerCase() as `0x${string}` | undefined;
  return {
  relayPrivateKey: key,
  relayAddress: relayAddress ?? null,
  relayMaxGasUsd: env.RELAY_MAX_GAS_USD,
  relayReplaceAfterMs: env.RELAY_REPLACE_AFTER_MS,
  relayRetryMs: env.RELAY_RETRY_MS,
  relayFailuresPerUserPerDay: env.RELAY_FAILURES_PER_USER_PER_DAY,
  };
}

