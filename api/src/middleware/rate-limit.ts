import type { Request, RequestHandler } from 'express';
import type { AppDeps } from '../deps.ts';
import { UserError } from '@shop/core';

/**
 * Fixed-window counters in Redis (shared by every api instance). Each key the `keys`
 * function gives is one counter; the request is refused with 429 when any counter is over
 * `limit`. `keys` may read what it needs (the account an e-mail names) before answering.
 */
type Budget = {
  name: string;
  limit: number;
  windowSeconds: number;
  /** The start of the 429 message; "please try again in N seconds" follows. */
  message?: string;
  /** Let requests through while Redis is unreachable (otherwise they get a 503). */
  failOpen?: boolean;
};

export function rateLimit(
  deps: Pick<AppDeps, 'redis' | 'config'>,
  opts: Budget & { keys: (req: Request) => (string | undefined)[] | Promise<(string | undefined)[]> },
): RequestHandler {
  return async (req, _res, next) => {
    try {
      await spendAttempt(deps, opts, await opts.keys(req));
      next();
    } catch (err) {
      next(err);
    }
  };
}

/**
 * Counts one attempt against each key's counter of `budget`, throwing the 429 (or the
 * 503) when any is over: what rateLimit does before a handler, for a handler that may
 * count only once it knows the attempt is one (a sign-in's code, once its password was right).
 */
export async function spendAttempt({ redis, config }: Pick<AppDeps, 'redis' | 'config'>, budget: Budget, rawKeys: (string | undefined)[]): Promise<void> {
  const keys = rawKeys.filter((k): k is string => Boolean(k));
  if (keys.length === 0) return;
  const multi = redis.multi();
  for (const k of keys) {
    const redisKey = `${config.queuePrefix}:rl:${budget.name}:${k.slice(0, 300)}`;
    multi.incr(redisKey);
    multi.expire(redisKey, budget.windowSeconds, 'NX');
    multi.ttl(redisKey);
  }
  const results = await multi.exec().catch((err: unknown) => {
    if (budget.failOpen) return null;
    throw err;
  });
  if (!results) {
    if (budget.failOpen) return;
    throw new UserError(503, 'Service temporarily unavailable, please try again');
  }
  for (let i = 0; i < keys.length; i++) {
    const count = Number(results[i * 3]?.[1] ?? 0);
    const ttl = Number(results[i * 3 + 2]?.[1] ?? budget.windowSeconds);
    if (count > budget.limit) throw new UserError(429, `${budget.message ?? 'Too many attempts'}, please try again in ${Math.max(ttl, 1)} seconds`);
  }
}
