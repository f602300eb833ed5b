import { BaseError, encodeFunctionData, ExecutionRevertedError, formatUnits, type Address, type Hex, type PublicClient } from 'viem';
import type { Db } from '../infra/db.ts';
import { MULTICALL3_ADDRESS } from '../chain/multicall3.ts';
import { tokenBySymbol, type TokenSymbol } from '../contract/tokens.ts';
import { PAYABLE_STATUSES } from '../payments/order-states.ts';
import { depositFactoryAbi } from '../deposits/abi.ts';
import { depositSalt, factoryGave } from '../deposits/addresses.ts';
import { balanceOfAbi } from '../rails/erc20/abi.ts';
import { CANDIDATE_PAGES } from './sweeper-candidates.ts';
import { feeAboveCeiling, fitBudget, type Fees } from './sweeper-budget.ts';
import { gasLimitOf, sendSweep } from './sweeper-send.ts';
import type { Followed } from './sweeper-verify.ts';
import type { GasWallet } from './sweeper-wallet.ts';
import { adoptTokenRecoveries } from './token-adopt.ts';
import type { Step, SweeperDeps } from './sweeper.ts';

/**
 * Sweeping the accepted tokens (ACCEPTED_ASSETS) held at deposit addresses on to the
 * receiving address (docs/decisions.md, "Sweeping tokens"), the token part of each
 * sweeper run, after the ETH part:
 * - candidates: an address and a token with unswept token payments, all settled, its order
 *   no longer being paid and paid or past its window, no sweep on its way holding the
 *   address (the rules of ETH's candidates: sweeping deploys the address's proxy);
 * - swept only where the token's balance there is what the books hold (a balance above it
 *   is a Transfer the indexer has not recorded yet; below, someone recovered it already:
 *   recorded as a sweep by its Transfer logs, token-adopt.ts, else the reconciler names it);
 * - dust left: a balance worth less than the gas of moving it at the current fee and price;
 * - the fee ceiling and the 24-hour gas budget of ETH sweeps (sweeper-budget.ts), counted
 *   together with them;
 * - an address whose token will not move (frozen by the issuer) left out of the batch;
 * - one transaction of the gas wallet to Multicall3, whose aggregate3 calls the factory's
 *   recoverToken(salt, token) once for each address and token (none may fail), its row
 *   (kind TOKENS, an item for each address and token) written before it is sent
 *   (sweeper-send.ts); followed by sweeper-verify.ts and confirmed by the tokens' own
 *   Transfer logs (token-sweep-marks.ts).
 */
export type TokenCandidate = {
  address: Address;
  orderId: string;
  asset: TokenSymbol;
  recorded: bigint;
  /** The block of its oldest unswept payment in the token, else its order's placement (where a search for its Transfer logs starts). */
  fromBlock?: bigint | null;
};
export type TokenHolding = TokenCandidate & { balance: bigint };

/**
 * Gas one more address and token adds to a token sweep: deploying the proxy and its
 * flushToken, through Multicall3 (`npm run bench -- --only=deposits` measured 57,613 a
 * USDC deposit more in a batch of 50; bench/RESULTS.md). A balance worth less is dust.
 */
export const GAS_PER_TOKEN_ITEM = 60_000n;

/** `wallet` null: sweeping is off, and only the recoveries someone else sent are looked into (token-adopt.ts). */
export async function sweepTokens(deps: SweeperDeps, wallet: GasWallet | null, followed: Followed, now: Date): Promise<Step> {
  const assets = deps.config.acceptedAssets.filter((a): a is TokenSymbol => a !== 'ETH');
  if (assets.length === 0) return { state: 'idle', reason: null };
  const factory = deps.config.depositFactoryAddress as Address;
  const candidates = (await readTokenCandidates(deps.db, assets, deps.config.sweepBatchSize * CANDIDATE_PAGES, followed.lost)).filter((c) => factoryGave(factory, c.orderId, c.address));
  if (candidates.length === 0) return { state: 'idle', reason: null };
  const holdings = await readTokenHoldings(deps.chain, candidates);
  // Less than the books hold there: someone recovered it (anyone may); recorded as a sweep
  // when the token's Transfer logs show it, even with sweeping off (token-adopt.ts).
  await adoptTokenRecoveries(deps, holdings.map((h) => ({ ...h, fromBlock: h.fromBlock ?? null })));
  if (!wallet) return { state: 'off', reason: null };
  const held = holdings.filter((h) => h.balance > 0n && h.balance === h.recorded);
  if (held.length === 0) return { state: 'idle', reason: null };
  const code = await deps.chain.getCode({ address: MULTICALL3_ADDRESS });
  if (!code || code === '0x') return { state: 'waiting', reason: `Sweeping tokens waits: this chain has no Multicall3 at ${MULTICALL3_ADDRESS}` };

  const fees: Fees = await deps.chain.estimateFeesPerGas();
  const tooDear = feeAboveCeiling(deps.config, fees, tokensText(held), new Set(held.map((h) => h.address)).size);
  if (tooDear) return { state: 'waiting', reason: tooDear, fields: { max_fee_per_gas_wei: fees.maxFeePerGas.toString() } };
  const ethUsd = await deps.prices.answerOrNull();
  if (ethUsd === null) return { state: 'waiting', reason: 'Sweeping tokens waits: the ETH price cannot be read, so dust cannot be told apart' };
  const floorOf = (asset: TokenSymbol) => dustFloor(fees.maxFeePerGas, ethUsd, tokenBySymbol(asset).decimals);
  const sweepable = held.filter((h) => h.balance >= floorOf(h.asset)).sort((a, b) => (a.balance === b.balance ? 0 : a.balance > b.balance ? -1 : 1));
  const dust = held.filter((h) => h.balance < floorOf(h.asset));
  const dustText = dust.length === 0 ? null : `${dust.length} token deposit${dust.length === 1 ? ' holds' : 's hold'} only dust (${tokensText(dust)}, less than the gas to sweep it)`;
  if (sweepable.length === 0) return { state: 'idle', reason: dustText };

  const { moving, refused } = await movable(deps, wallet, sweepable.slice(0, deps.config.sweepBatchSize));
  const refusedText = refused.length === 0 ? null : `${refused.length} token deposit${refused.length === 1 ? ' the token refuses to move is' : 's the token refuses to move are'} left (${tokensText(refused)} at ${refused.slice(0, 3).map((h) => h.address.toLowerCase()).join(', ')}${refused.length > 3 ? ', ...' : ''})`;
  if (moving.length === 0) return { state: 'waiting', reason: `Sweeping tokens waits: ${refusedText}` };
  const notes = [refusedText, dustText].filter((n): n is string => n !== null);

  const plan = await fitBudget(deps, {
    batch: moving,
    fees,
    sender: wallet.address.toLowerCase(),
    now,
    lost: followed.lost,
    gasLimitOf: (batch) => gasLimitOf(deps, wallet, tokenSweepCalls(batch)),
  });
  if ('wait' in plan) return { state: 'waiting', reason: plan.wait };
  const items = plan.batch.map((h) => ({ address: h.address, asset: h.asset, amount: h.balance }));
  const sent = await sendSweep(deps, wallet, { kind: 'TOKENS', items, data: tokenSweepCalls(plan.batch), gasLimit: plan.gasLimit, worstWei: plan.worstWei, fees, now, lost: followed.lost });
  if ('wait' in sent) return { state: 'waiting', reason: sent.wait };
  const reason = [`Sent token sweep ${sent.txHash} of ${sent.addresses} address${sent.addresses === 1 ? '' : 'es'} (${tokensText(plan.batch)})`, ...notes].join('; ');
  return { state: 'sent', reason, sent, fields: { token_tx_hash: sent.txHash, token_items: items.length, token_gas_limit: sent.gasLimit.toString() } };
}

/**
 * The batch less what the node says cannot move: a token that froze an address (USDC's
 * blocklist) makes its recoverToken revert, and with it the whole batch (none may fail).
 * The batch is estimated whole; when that reverts, each item alone, and those that revert
 * are left out (logged, and said in the status) until they move again. A node that fails
 * otherwise fails the run, as for ETH.
 */
async function movable(deps: SweeperDeps, wallet: GasWallet, batch: TokenHolding[]): Promise<{ moving: TokenHolding[]; refused: TokenHolding[] }> {
  const moves = (items: TokenHolding[]) =>
    gasLimitOf(deps, wallet, tokenSweepCalls(items)).then(
      () => true,
      (err: unknown) => {
        if (err instanceof BaseError && err.walk((e) => e instanceof ExecutionRevertedError)) return false;
        throw err;
      },
    );
  if (await moves(batch)) return { moving: batch, refused: [] };
  const each = await Promise.all(batch.map((h) => moves([h])));
  const refused = batch.filter((_, i) => !each[i]);
  for (const h of refused) deps.logger.warn({ msg: 'a token deposit the token refuses to move (a frozen address?) is left out of the token sweep', deposit_address: h.address, asset: h.asset, amount: h.balance.toString() });
  return { moving: batch.filter((_, i) => each[i]), refused };
}

/**
 * The candidates, a page of them, largest first: an address and an accepted token whose
 * unswept payments are all settled, at an order no longer being paid (paid, or its window
 * over), no sweep on its way (SENT, but one the node lost) holding the address. Reads the
 * unswept deposits only (x_payment_unswept_deposit).
 */
export async function readTokenCandidates(db: Db, assets: TokenSymbol[], limit: number, lost: string[] = []): Promise<TokenCandidate[]> {
  const payable = [...PAYABLE_STATUSES] as string[];
  const rows = await db.$queryRaw<{ address: string; orderId: string; asset: TokenSymbol; recorded: string; fromBlock: bigint | null }[]>`
    SELECT p."depositAddress" AS address, o."id"::text AS "orderId", p."asset"::text AS asset, COALESCE(SUM(p."amount" - p."flushedEarly"), 0)::text AS recorded,
      COALESCE(MIN(p."blockNumber"), o."placedAtBlock") AS "fromBlock"
    FROM "Payment" p
    JOIN "Order" o ON o."depositAddress" = p."depositAddress"
    WHERE p."depositAddress" IS NOT NULL AND p."sweepId" IS NULL AND p."status" <> 'REJECTED' AND p."asset"::text = ANY(${assets}::text[])
      AND o."status"::text <> ALL(${payable}::text[])
      AND (o."status" = 'PAID' OR o."paymentDeadline" < now())
      AND NOT EXISTS (
        SELECT 1 FROM "DepositSweepItem" i JOIN "DepositSweep" s ON s."id" = i."sweepId"
        WHERE i."address" = p."depositAddress" AND s."status" = 'SENT' AND s."id"::text <> ALL(${lost}::text[]))
    GROUP BY p."depositAddress", o."id", p."asset"
    HAVING bool_and(p."status" <> 'PENDING')
    ORDER BY COALESCE(SUM(p."amount" - p."flushedEarly"), 0) DESC, p."depositAddress", p."asset"
    LIMIT ${limit}`;
  return rows.map((r) => ({ address: r.address as Address, orderId: r.orderId, asset: r.asset, recorded: BigInt(r.recorded), fromBlock: r.fromBlock }));
}

const READS_AT_ONCE = 20;

/** Each candidate's balance of its token at the latest block. */
export async function readTokenHoldings(chain: PublicClient, candidates: TokenCandidate[]): Promise<TokenHolding[]> {
  const out: TokenHolding[] = [];
  for (let i = 0; i < candidates.length; i += READS_AT_ONCE) {
    const chunk = candidates.slice(i, i + READS_AT_ONCE);
    const balances = await Promise.all(
      chunk.map((c) => chain.readContract({ address: tokenBySymbol(c.asset).address, abi: balanceOfAbi, functionName: 'balanceOf', args: [c.address], blockTag: 'latest' })),
    );
    chunk.forEach((c, j) => out.push({ ...c, balance: balances[j] as bigint }));
  }
  return out;
}

/** The factory's recoverToken(salt, token) for each address and token: batched through Multicall3 by the gas wallet. */
export function tokenSweepCalls(batch: Pick<TokenCandidate, 'orderId' | 'asset'>[]): Hex[] {
  return batch.map((h) => encodeFunctionData({ abi: depositFactoryAbi, functionName: 'recoverToken', args: [depositSalt(h.orderId), tokenBySymbol(h.asset).address] }));
}

/**
 * The smallest balance worth sweeping, in the token's smallest units: the gas of one more
 * item at `maxFeePerGas`, in dollars at the ETH/USD answer (8 decimals), one token a dollar.
 */
export function dustFloor(maxFeePerGas: bigint, ethUsdAnswer: bigint, decimals: number): bigint {
  return (GAS_PER_TOKEN_ITEM * maxFeePerGas * ethUsdAnswer * 10n ** BigInt(decimals)) / 10n ** 26n;
}

/** What some token holdings add up to, per token, as people read it: "25 USDC, 30.5 USDT". */
export function tokensText(held: { asset: TokenSymbol; balance: bigint }[]): string {
  const sums = new Map<TokenSymbol, bigint>();
  for (const h of held) sums.set(h.asset, (sums.get(h.asset) ?? 0n) + h.balance);
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([asset, sum]) => `${formatUnits(sum, tokenBySymbol(asset).decimals)} ${asset}`)
    .join(', ');
}
