import type { AppConfig, Db, Logger, PriceSource, Queues, Redis, Tracer } from '@shop/core';
import type { PublicClient } from 'viem';

/** Everything the HTTP app needs; built by server.ts, or by a test with its own services. */
export type AppDeps = {
  config: AppConfig;
  db: Db;
  redis: Redis;
  queues: Queues;
  chain: PublicClient;
  tracer: Tracer;
  /** The ETH price source (Runtime.prices). */
  prices: PriceSource;
  logger: Logger;
};
