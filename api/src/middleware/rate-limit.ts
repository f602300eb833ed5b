import type { Request, RequestHandler } from 'express';
import type { AppDeps } from '../deps.ts';
import { UserError } from '@shop/core';

/**
 * Fixed-window counters in Redis (shared by every api instance). Each key the `keys`
 * function gives is one counter; the request is refused with 429 when any counter is over
 * `limit`. `keys` may read what it needs (the account an e-mail names) before answering.
 */
export function rateLimit(
  { redis, config }: AppDeps,
  opts: {
    name: string;
    limit: number;
    windowSeconds: number;
    keys: (req: Request) => (string | undefined)[] | Promise<(string | undefined)[]>;
    /** The start of the 429 message; "please try again in N seconds" follows. */
    message?: string;
    /** Let requests through while Redis is unreachable (otherwise they get a 503). */
    failOpen?: boolean;
  },
): RequestHandler {
  return async (req, _res, next) => {
    const keys = (await opts.keys(req)).filter((k): k is string => Boolean(k));
    if (keys.length === 0) return next();
    const multi = redis.multi();
    for (const k of keys) {
      const redisKey = `${config.queuePrefix}:rl:${opts.name}:${k.slice(0, 300)}`;
      multi.incr(redisKey);
      multi.expire(redisKey, opts.windowSeconds, 'NX');
      multi.ttl(redisKey);
    }
    const results = await multi.exec().catch((err: unknown) => {
      if (opts.failOpen) return null;
      throw err;
    });
    if (!results) return next(opts.failOpen ? undefined : new UserError(503, 'Service temporarily unavailable, please try again'));
    for (let i = 0; i < keys.length; i++) {
      const count = Number(results[i * 3]?.[1] ?? 0);
      const ttl = Number(results[i * 3 + 2]?.[1] ?? opts.windowSeconds);
      if (count > opts.limit) {
        return next(new UserError(429, `${opts.message ?? 'Too many attempts'}, please try again in ${Math.max(ttl, 1)} seconds`));
      }
    }
    next();
  };
}
