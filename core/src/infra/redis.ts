import { Redis, type RedisOptions } from 'ioredis';

export { Redis };

/**
 * A Redis connection. `forWorker` follows BullMQ's production guide: workers keep
 * retrying forever (`maxRetriesPerRequest: null`); producers fail fast so an HTTP
 * request gets a 503 instead of hanging while Redis is down.
 */
export function createRedis(url: string, opts: { forWorker?: boolean; name?: string } = {}): Redis {
  const options: RedisOptions = {
    connectionName: opts.name,
    maxRetriesPerRequest: opts.forWorker ? null : 1,
    // Commands wait for a connection that is coming up; with one retry, a request fails
    // fast (and answers 503) while Redis is really down.
    enableOfflineQueue: true,
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    lazyConnect: false,
  };
  const client = new Redis(url, options);
  // An unhandled 'error' event would crash the process; callers log via their own listener.
  client.on('error', () => {});
  return client;
}

/** Waits (bounded) for a connection that is still being established; false if it never gets ready. */
export async function redisReady(redis: Redis, timeoutMs = 2_000): Promise<boolean> {
  if (redis.status === 'ready') return true;
  if (!['wait', 'connecting', 'connect', 'reconnecting'].includes(redis.status)) return false;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    timer.unref();
    function done(ok: boolean) {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    }
    function onReady() {
      done(true);
    }
    redis.on('ready', onReady);
  });
}

export async function pingRedis(redis: Redis, timeoutMs = 2_000): Promise<boolean> {
  if (!(await redisReady(redis, timeoutMs))) return false;
  try {
    const answer = await Promise.race([
      redis.ping(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref()),
    ]);
    return answer === 'PONG';
  } catch {
    return false;
  }
}
