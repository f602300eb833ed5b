import type { Address, PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import type { Tracer } from '../chain/trace.ts';
import type { PriceSource } from '../rails/eth/price.ts';
import type { Db } from '../infra/db.ts';
import type { Logger } from '../infra/logger.ts';
import type { Redis } from '../infra/redis.ts';
import { adoptFlushes } from './sweeper-adopt.ts';
import { feeAboveCeiling, fitBudget, type Fees } from './sweeper-budget.ts';
import { recordUnseenDeposits, waitsForUnseen } from './unseen-deposits.ts';
import { factoryGave } from '../deposits/addresses.ts';
import { reopenReorganizedSweeps } from './sweep-reorgs.ts';
import { CANDIDATE_PAGES, readCandidates, readHoldings, worthSweeping, type Holding } from './sweeper-candidates.ts';
import { gasLimitOf, sendSweep, sweepCallData, type Sent } from './sweeper-send.ts';
import { sweepTokens } from './token-sweeps.ts';
import { sweepingOffReason, writeSweeperStatus, type SweeperState } from './sweeper-status.ts';
import { followSweeps, type Followed } from './sweeper-verify.ts';
import { factoryProblem } from '../deposits/factory-check.ts';
import { unaccountedFlushes } from './sweeper-found.ts';
import { ethText, gasWallet, type GasWallet } from './sweeper-wallet.ts';

/**
 * One run of the deposit sweeper (the `deposit-sweep` job, every SWEEP_INTERVAL_MS), as
 * named steps:
 * 1. follow the sweeps on their way to CONFIRMED, FAILED or DROPPED (sweeper-verify.ts);
 * 2. off without a factory; refuse a factory whose code, or its forwarder's, is not the
 *    shop's for the receiving address (factory-check.ts: read again every run);
 * 3. the candidates, a bounded page of them, largest recorded deposits first, and their
 *    balances (sweeper-candidates.ts); emptied ones are looked into (sweeper-adopt.ts),
 *    so a sweep someone else sent is recorded even while sweeping is off (no gas wallet);
 * 4. the fee against the ceiling, dust left out, the batch cut to the gas budget
 *    (sweeper-budget.ts);
 * 5. the sweep sent to the factory, its row written first (sweeper-send.ts);
 * 6. then the accepted tokens at the deposit addresses, the same way: one batch of the
 *    factory's recoverToken calls through Multicall3, under the same ceiling and budget
 *    (token-sweeps.ts); a recovery someone else sent is recorded as a token sweep, even
 *    while sweeping is off (token-adopt.ts).
 * Every run stores its state and why in Redis (sweeper-status.ts) and logs it when it
 * changes. The money only ever goes to the factory, which only pays the receiving address.
 */
/** `prices`: the process's ETH price (Runtime.prices), read to tell a token deposit's dust. */
export type SweeperDeps = { config: AppConfig; db: Db; redis: Redis; chain: PublicClient; tracer: Tracer; logger: Logger; prices: Pick<PriceSource, 'answerOrNull'> };

type ShownSent = Omit<Sent, 'expectedWei' | 'gasLimit' | 'maxFeePerGas'> & { expectedWei: string; gasLimit: string; maxFeePerGas: string };

export type SweepRun = {
  state: SweeperState;
  reason: string | null;
  followed: Followed;
  /** The ETH sweep sent in this run. */
  sent?: ShownSent;
  /** The token sweep sent in this run (token-sweeps.ts). */
  tokenSent?: ShownSent;
};

/** What one part of a run (ETH, or tokens) did, and why. */
export type Step = { state: SweeperState; reason: string | null; fields?: Record<string, unknown>; sent?: Sent };


export async function runDepositSweeper(deps: SweeperDeps, now = new Date()): Promise<SweepRun> {
  await reopenReorganizedSweeps(deps);
  const followed = await followSweeps(deps, now);
  const done = async (state: SweeperState, reason: string | null, fields: Record<string, unknown> = {}): Promise<SweepRun> => {
    await writeSweeperStatus(deps, state, reason, { ...fields, ...followedFields(followed) });
    return { state, reason, followed };
  };
  const off = sweepingOffReason(deps.config);
  const wallet = gasWallet(deps);
  if (!deps.config.depositFactoryAddress) return done('off', off);
  const problem = await factoryProblem(deps);
  if (problem) return off ? done('off', off) : done('waiting', `Sweeping refused: ${problem}`);

  const eth = await sweepEth(deps, wallet, followed, now);
  // Tokens after ETH, in the same run, under the same ceiling and budget (token-sweeps.ts);
  // with sweeping off, only the recoveries someone else sent are recorded (token-adopt.ts).
  const tokens = await sweepTokens(deps, eth.state === 'off' ? null : wallet, followed, now);
  if (eth.state === 'off' || !wallet) return done('off', eth.reason);
  const state = [eth.state, tokens.state].includes('sent') ? 'sent' : [eth.state, tokens.state].includes('waiting') ? 'waiting' : 'idle';
  const reasons = [eth.reason, tokens.reason].filter((r): r is string => r !== null);
  const run = await done(state, reasons.length > 0 ? reasons.join('; ') : null, { ...eth.fields, ...tokens.fields });
  const shown = (sent: Sent) => ({ ...sent, expectedWei: sent.expectedWei.toString(), gasLimit: sent.gasLimit.toString(), maxFeePerGas: sent.maxFeePerGas.toString() });
  return { ...run, ...(eth.sent ? { sent: shown(eth.sent) } : {}), ...(tokens.sent ? { tokenSent: shown(tokens.sent) } : {}) };
}

/**
 * The ETH part of a run: the candidates, their balances and what the books say of them,
 * the fee, the dust, the budget, the sweep sent to the factory.
 */
async function sweepEth(deps: SweeperDeps, wallet: GasWallet | null, followed: Followed, now: Date): Promise<Step> {
  const off = sweepingOffReason(deps.config);
  const candidates = await readCandidates(deps.db, deps.config.sweepBatchSize * CANDIDATE_PAGES, followed.lost);
  // An address another factory gave (the factory was changed with the receiving address):
  // this factory's sweep would find nothing there and burn its gas every run. Left, and said.
  const factory = deps.config.depositFactoryAddress as Address;
  const foreign = candidates.filter((c) => !factoryGave(factory, c.orderId, c.address));
  if (foreign.length > 0) deps.logger.warn({ addresses: foreign.slice(0, 10).map((c) => c.address), count: foreign.length }, 'deposit addresses of another deposit factory hold unswept deposits: sweep them with that factory');
  const holdings = await readHoldings(deps.chain, candidates.filter((c) => !foreign.includes(c)));
  // Sweeps someone else sent are recorded even with sweeping off: the books say where every deposit went.
  const adopted = await adoptFlushes(deps, holdings);
  // ETH the indexer did not see (through a contract, after an address's watch ended) is
  // recorded as its order's inflow first; an address holding more than its deposits is not
  // swept until then (its sweep would move ETH the books do not know of), unless what it
  // holds more is below the recording floor: the sweep's confirmation records that.
  const surplus = new Set(holdings.filter(waitsForUnseen).map((h) => h.address.toLowerCase()));
  const more = holdings.filter((h) => h.balanceWei > h.recordedWei).map((h) => h.address.toLowerCase());
  await recordUnseenDeposits(deps, more).catch((err: unknown) => deps.logger.warn({ msg: 'could not look for deposits the indexer did not see', err }));
  if (off || !wallet) return { state: 'off', reason: off ?? 'Sweeping is off' };
  const flushedUnseen = await flushedNotRecorded(deps, holdings.filter((h) => !adopted.has(h.address.toLowerCase()) && !surplus.has(h.address.toLowerCase())));
  const held = holdings.filter((h) => h.balanceWei > 0n && !adopted.has(h.address.toLowerCase()) && !surplus.has(h.address.toLowerCase()) && !flushedUnseen.has(h.address.toLowerCase()));
  if (held.length === 0) return { state: 'idle', reason: null };
  const fees: Fees = await deps.chain.estimateFeesPerGas();
  const total = held.reduce((sum, h) => sum + h.balanceWei, 0n);
  const tooDear = feeAboveCeiling(deps.config, fees, `${ethText(total)} ETH`, held.length);
  if (tooDear) return { state: 'waiting', reason: tooDear, fields: { max_fee_per_gas_wei: fees.maxFeePerGas.toString() } };
  const { sweepable, dust } = worthSweeping(held, fees.maxFeePerGas);
  if (sweepable.length === 0) return { state: 'idle', reason: dustNote(dust) };

  const plan = await fitBudget(deps, {
    batch: sweepable.slice(0, deps.config.sweepBatchSize),
    fees,
    sender: wallet.address.toLowerCase(),
    now,
    lost: followed.lost,
    gasLimitOf: (batch) => gasLimitOf(deps, wallet, sweepCallData(batch)),
  });
  if ('wait' in plan) return { state: 'waiting', reason: plan.wait };
  const items = plan.batch.map((h) => ({ address: h.address, asset: 'ETH' as const, amount: h.balanceWei }));
  const sent = await sendSweep(deps, wallet, { kind: 'ETH', items, data: sweepCallData(plan.batch), gasLimit: plan.gasLimit, worstWei: plan.worstWei, fees, now, lost: followed.lost });
  if ('wait' in sent) return { state: 'waiting', reason: sent.wait };
  const reason = `Sent sweep ${sent.txHash} of ${sent.addresses} address${sent.addresses === 1 ? '' : 'es'} (${ethText(sent.expectedWei)} ETH)${dust.length ? `; ${dustNote(dust)}` : ''}`;
  return { state: 'sent', reason, sent, fields: { tx_hash: sent.txHash, addresses: sent.addresses, expected_wei: sent.expectedWei.toString(), gas_limit: sent.gasLimit.toString() } };
}

/**
 * Of the holdings whose balance is not what the books hold there, those flushed since
 * their oldest unswept deposit by a transaction not confirmed as a sweep (sweeper-found.ts;
 * one the adoption did not look into this run): not swept until that flush is recorded,
 * or the books would net new ETH against deposits it moved. Not known (the node refused
 * the search): held back too.
 */
async function flushedNotRecorded(deps: SweeperDeps, holdings: Holding[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const h of holdings.filter((x) => x.balanceWei > 0n && x.balanceWei !== x.recordedWei)) {
    const flushes = await unaccountedFlushes(deps, h.address, { from: h.fromBlock ?? 0n, to: 'latest' }).catch(() => null);
    if (flushes === null || flushes.length > 0) out.add(h.address.toLowerCase());
  }
  return out;
}

const dustNote = (dust: Holding[]) =>
  dust.length === 0 ? null : `${dust.length} address${dust.length === 1 ? ' holds' : 'es hold'} only dust (${ethText(dust.reduce((s, h) => s + h.balanceWei, 0n))} ETH, less than the gas to sweep it)`;

const followedFields = (f: Followed) => ({ sweeps_confirmed: f.confirmed, sweeps_failed: f.failed, sweeps_dropped: f.dropped, sweeps_on_their_way: f.waiting, sweeps_lost: f.lost.length });
