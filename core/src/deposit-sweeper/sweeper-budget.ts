import type { AppConfig } from '../infra/config.ts';
import type { Db } from '../infra/db.ts';
import { ethText, gweiText } from './sweeper-wallet.ts';

/**
 * What the sweeper may spend on gas: nothing while the node's suggested fee is above the
 * ceiling (SWEEP_MAX_GAS_PRICE_GWEI); and within a rolling 24 hours no more than the
 * budget (SWEEP_GAS_BUDGET_ETH), counting the fees of sweeps mined (confirmed, or reverted:
 * a revert burns gas too), the worst case (gas limit x max fee) of the sweeper's sweeps
 * still on their way, and this batch's worst case. A smaller batch that fits may go. An
 * attacker who sends dust to many addresses, or pushes the fee up, makes the shop wait,
 * never spend.
 */
const DAY_MS = 24 * 3600_000;

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
export type Plan<T> = { batch: T[]; gasLimit: bigint; worstWei: bigint } | { wait: string };

/** Why the fee is too high to sweep now, or null. `held`: what the addresses waiting hold, as people read it ("0.2 ETH", "25 USDC, 30.5 USDT"). */
export function feeAboveCeiling(config: Pick<AppConfig, 'sweepMaxFeePerGasWei'>, fees: Fees, held: string, addresses: number): string | null {
  if (fees.maxFeePerGas <= config.sweepMaxFeePerGasWei) return null;
  return (
    `Sweeping waits: the network's fee is ${gweiText(fees.maxFeePerGas)} gwei, above the ceiling of ${gweiText(config.sweepMaxFeePerGasWei)} gwei ` +
    `(SWEEP_MAX_GAS_PRICE_GWEI); ${addresses} address${addresses === 1 ? '' : 'es'} hold${addresses === 1 ? 's' : ''} ${held} meanwhile`
  );
}

/**
 * The gas the sweeper's sweeps and the relay's transactions (relay/relay.ts: buyers' signed
 * payments, which share this budget) of the last 24 hours cost or may cost, and when the
 * oldest of them leaves the window. `sender`: the sweeper's gas wallet, whose sweeps on
 * their way count at their worst case (a sweep someone else sent costs the shop nothing).
 * `lost`: sweeps the node lost, which the replacement taking their nonce stands for (only
 * one of the two can be mined). Reads DepositSweep(createdAt) and PaymentAuthorization(createdAt).
 */
export async function gasSpent(db: Db, sender: string, now: Date, lost: string[] = []): Promise<{ usedWei: bigint; freesAt: Date | null }> {
  const since = new Date(now.getTime() - DAY_MS);
  const [row] = await db.$queryRaw<{ used: string; oldest: Date | null }[]>`
    SELECT COALESCE(SUM("wei"), 0)::text AS used, MIN("at") AS oldest FROM (
      SELECT CASE
               WHEN "status" IN ('CONFIRMED', 'FAILED') THEN COALESCE("feeWei", 0)
               WHEN "status" = 'SENT' AND "fromAddress" = ${sender} AND "id"::text <> ALL(${lost}::text[]) THEN "gasLimit"::numeric * "maxFeePerGasWei"
               ELSE 0 END AS "wei",
             CASE WHEN "status" IN ('CONFIRMED', 'FAILED', 'SENT') THEN "createdAt" END AS "at"
      FROM "DepositSweep" WHERE "createdAt" > ${since}
      UNION ALL
      SELECT CASE
               WHEN "status" = 'SENT' THEN COALESCE("gasLimit"::numeric * "maxFeePerGasWei", 0)
               ELSE COALESCE("feeWei", 0) END,
             CASE WHEN "status" = 'SENT' OR "feeWei" IS NOT NULL THEN "createdAt" END
      FROM "PaymentAuthorization" WHERE "createdAt" > ${since}
    ) spent`;
  return { usedWei: BigInt(row?.used ?? '0'), freesAt: row?.oldest ? new Date(row.oldest.getTime() + DAY_MS) : null };
}

/**
 * The largest leading part of `batch` (largest balances first) whose worst case fits what
 * is left of the budget, with its gas limit; or why nothing can go. `gasLimitOf` estimates
 * a sweep of some addresses (with its margin). ETH and token sweeps share the budget: the
 * fees of every sweep of the last 24 hours count.
 */
export async function fitBudget<T>(
  deps: { db: Db; config: Pick<AppConfig, 'sweepGasBudgetWei'> },
  input: { batch: T[]; fees: Fees; sender: string; now: Date; lost: string[]; gasLimitOf: (batch: T[]) => Promise<bigint> },
): Promise<Plan<T>> {
  const budget = deps.config.sweepGasBudgetWei;
  const { usedWei, freesAt } = await gasSpent(deps.db, input.sender, input.now, input.lost);
  const left = budget - usedWei;
  let n = input.batch.length;
  let oneCosts: bigint | null = null;
  while (n > 0 && left > 0n) {
    const batch = input.batch.slice(0, n);
    const gasLimit = await input.gasLimitOf(batch);
    const worstWei = gasLimit * input.fees.maxFeePerGas;
    if (worstWei <= left) return { batch, gasLimit, worstWei };
    if (n === 1) oneCosts = worstWei;
    // Gas grows about linearly with the addresses: try the share that fits, at least one fewer.
    n = Math.min(n - 1, Number((BigInt(n) * left) / worstWei));
  }
  if (usedWei === 0n && oneCosts !== null) {
    return {
      wait: `Sweeping waits: sweeping one address may cost ${ethText(oneCosts)} ETH at the current fee, more than the gas budget of ${ethText(budget)} ETH for 24 hours (SWEEP_GAS_BUDGET_ETH)`,
    };
  }
  const when = freesAt ? ` (from ${freesAt.toISOString()})` : '';
  return { wait: `Sweeping waits: the gas budget of ${ethText(budget)} ETH for 24 hours is spent (${ethText(usedWei)} ETH used); next sweep when older sweeps leave the window${when}` };
}
