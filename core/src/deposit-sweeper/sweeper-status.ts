import type { AppConfig } from '../infra/config.ts';
import type { Logger } from '../infra/logger.ts';
import type { Redis } from '../infra/redis.ts';

/**
 * What the deposit sweeper is doing and why, as its last run left it: one key in Redis
 * (under the queue prefix), so the admin page and the metrics of any process read the same
 * thing. `off`: no gas wallet or no factory; `idle`: nothing to sweep; `waiting`: something
 * to sweep, and the reason it was not sent (the gas price, the budget, the wallet); `sent`:
 * a sweep went out in the last run.
 */
export type SweeperState = 'off' | 'idle' | 'waiting' | 'sent';
export type SweeperStatus = { state: SweeperState; reason: string | null; at: string };

const statusKey = (config: Pick<AppConfig, 'queuePrefix'>) => `${config.queuePrefix}:deposit-sweeper`;

/** Why sweeping is off by configuration, or null when it can run. */
export function sweepingOffReason(config: Pick<AppConfig, 'sweeperAddress' | 'depositFactoryAddress'>): string | null {
  if (!config.depositFactoryAddress) return 'Sweeping is off: no deposit factory is configured (DEPOSIT_FACTORY_ADDRESS)';
  if (!config.sweeperAddress) return 'Sweeping is off: no gas wallet is configured (SWEEPER_PRIVATE_KEY, or SWEEPER_ADDRESS for an external signer)';
  return null;
}

/**
 * The sweeper's status as its last run stored it. Before any run: `off` when the
 * configuration turns sweeping off, otherwise null (not run yet).
 */
export async function readSweeperStatus(redis: Redis, config: Pick<AppConfig, 'queuePrefix' | 'sweeperAddress' | 'depositFactoryAddress'>): Promise<SweeperStatus | null> {
  const raw = await redis.get(statusKey(config));
  const stored = raw ? parseStatus(raw) : null;
  if (stored) return stored;
  const off = sweepingOffReason(config);
  return off ? { state: 'off', reason: off, at: new Date().toISOString() } : null;
}

function parseStatus(raw: string): SweeperStatus | null {
  try {
    const value = JSON.parse(raw) as Partial<SweeperStatus>;
    if (!['off', 'idle', 'waiting', 'sent'].includes(value.state as string) || typeof value.at !== 'string') return null;
    return { state: value.state as SweeperState, reason: typeof value.reason === 'string' ? value.reason : null, at: value.at };
  } catch {
    return null;
  }
}

/**
 * Stores the status of this run and logs it: at info (warn while waiting) when the state
 * or its reason changed since the last run, at debug otherwise, so "off" or the same wait
 * is said once, not every ten minutes.
 */
export async function writeSweeperStatus(
  deps: { redis: Redis; config: Pick<AppConfig, 'queuePrefix'>; logger: Logger },
  state: SweeperState,
  reason: string | null,
  fields: Record<string, unknown> = {},
): Promise<SweeperStatus> {
  const status: SweeperStatus = { state, reason, at: new Date().toISOString() };
  const previous = await deps.redis.getset(statusKey(deps.config), JSON.stringify(status)).catch(() => null);
  const before = previous ? parseStatus(previous) : null;
  const line = { msg: reason ?? `deposit sweeper ${state}`, sweeper_state: state, ...fields };
  if (before?.state === state && before.reason === reason) deps.logger.debug(line);
  else if (state === 'waiting') deps.logger.warn(line);
  else deps.logger.info(line);
  return status;
}
