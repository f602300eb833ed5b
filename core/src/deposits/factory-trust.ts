import type { Address, PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import type { DepositFactoryJson } from '../contract/deposits-json.ts';
import type { Logger } from '../infra/logger.ts';
import { depositAddressOf } from './addresses.ts';
import { factoryProblem } from './factory-check.ts';

/**
 * Whether this process hands out the configured deposit factory's addresses: the verdict
 * of the factory's latest check (factory-check.ts), kept in the process so placing an
 * order asks the node nothing. The policy (docs/decisions.md, "Is the deposit factory ours"):
 * - the api and the worker check when they start; until a check passes no order gets a
 *   deposit address (orders are still placed, and paid by their tag);
 * - a node that does not answer is asked again (after RETRY_MS, doubling up to
 *   MAX_RETRY_MS) and never makes a verdict: a factory found good stays good meanwhile;
 * - checked again every RECHECK_MS: two eth_getCode calls. The code at an address changes
 *   only when its deployment is undone by a reorganization and something else deployed
 *   there from the same account and nonce (a contract cannot be destroyed and redeployed
 *   since EIP-6780, and the factory has no selfdestruct anyway), so this is a backstop;
 * - the sweeper and the token recovery check again themselves before anything is sent.
 */
export type FactoryVerdict = DepositFactoryJson;

export type FactoryTrust = {
  /** The latest verdict. */
  verdict(): FactoryVerdict;
  /** The order's deposit address to hand out: the trusted factory's, or null (none configured, not yet checked, refused). No node call. */
  depositAddressOf(orderId: string): Address | null;
  /** One check now. A node that does not answer throws, and the verdict stays as it was. */
  check(): Promise<FactoryVerdict>;
  /**
   * Checks now, and again on the policy's schedule, until stopped. Resolves with the first
   * verdict that is not `checking`, or with `checking` after `waitMs` if given.
   */
  start(opts?: { waitMs?: number }): Promise<FactoryVerdict>;
  stop(): void;
};

const RETRY_MS = 2_000;
const MAX_RETRY_MS = 60_000;
const RECHECK_MS = 10 * 60_000;

type Deps = { config: Pick<AppConfig, 'depositFactoryAddress' | 'receivingAddress'>; chain: PublicClient; logger: Logger };
type Timing = { retryMs: number; maxRetryMs: number; recheckMs: number };

export function createFactoryTrust(deps: Deps, timing: Timing = { retryMs: RETRY_MS, maxRetryMs: MAX_RETRY_MS, recheckMs: RECHECK_MS }): FactoryTrust {
  const address = deps.config.depositFactoryAddress?.toLowerCase() ?? null;
  let verdict: FactoryVerdict = address
    ? { address, state: 'checking', reason: 'its code has not been checked yet', checkedAt: null }
    : { address: null, state: 'off', reason: 'no deposit factory is configured (DEPOSIT_FACTORY_ADDRESS)', checkedAt: null };
  const waiters = new Set<(v: FactoryVerdict) => void>();
  let timer: NodeJS.Timeout | undefined;
  let started: Promise<FactoryVerdict> | undefined;
  let stopped = false;

  const settle = (next: FactoryVerdict) => {
    if (next.state !== verdict.state || next.reason !== verdict.reason) {
      const line = { msg: next.state === 'trusted' ? "the deposit factory's code is the shop's: new orders get deposit addresses" : `deposit factory refused: ${next.reason}`, factory: address };
      if (next.state === 'refused') deps.logger.error(line);
      else deps.logger.info(line);
    }
    verdict = next;
    for (const resolve of waiters) resolve(verdict);
    waiters.clear();
  };

  const check = async (): Promise<FactoryVerdict> => {
    if (!address) return verdict;
    const problem = await factoryProblem(deps);
    settle({ address, state: problem ? 'refused' : 'trusted', reason: problem, checkedAt: new Date().toISOString() });
    return verdict;
  };

  let delay = timing.retryMs;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void run(), ms);
    timer.unref();
  };
  const run = async () => {
    try {
      await check();
      delay = timing.retryMs;
      schedule(timing.recheckMs);
    } catch (err) {
      // No raw error text in the reason (it is shown to operators): what kind, and that it is asked again.
      deps.logger.warn({ msg: 'could not check the deposit factory; asking the node again', err, retryInMs: delay });
      if (verdict.state === 'checking') verdict = { ...verdict, reason: 'the node has not answered the check yet; asking again' };
      schedule(delay);
      delay = Math.min(delay * 2, timing.maxRetryMs);
    }
  };

  return {
    verdict: () => verdict,
    depositAddressOf: (orderId) => (verdict.state === 'trusted' && address ? depositAddressOf(address as Address, orderId) : null),
    check,
    start(opts = {}) {
      if (!address) return Promise.resolve(verdict);
      started ??= new Promise<FactoryVerdict>((resolve) => {
        waiters.add(resolve);
        void run();
      });
      if (opts.waitMs === undefined) return started;
      return Promise.race([started, new Promise<FactoryVerdict>((resolve) => setTimeout(() => resolve(verdict), opts.waitMs).unref())]);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
