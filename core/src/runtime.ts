import type { PublicClient } from 'viem';
import type { AppConfig } from './infra/config.ts';
import { createChainClient } from './chain/public-client.ts';
import { createTracer, type Tracer } from './chain/trace.ts';
import { createPriceSource, type PriceSource } from './rails/eth/price.ts';
import { createAssetPrices, type AssetPrices } from './rails/prices.ts';
import { createFactoryTrust, type FactoryTrust } from './deposits/factory-trust.ts';
import { createDb, type Db } from './infra/db.ts';
import { createLogger, type Logger } from './infra/logger.ts';
import { createQueues, type Queues } from './infra/queues.ts';
import { createRedis, type Redis } from './infra/redis.ts';

/** The shared connections of one process (api or worker). */
export type Runtime = {
  config: AppConfig;
  logger: Logger;
  db: Db;
  redis: Redis;
  queues: Queues;
  chain: PublicClient;
  /** Internal transfers from the node's call traces (smart-contract wallets). */
  tracer: Tracer;
  /** The ETH price (the Chainlink feed, shared through Redis). */
  prices: PriceSource;
  /** Every accepted asset's price as the money rules take it (rails/prices.ts): quotes, late transfers, credits. */
  assetPrices: AssetPrices;
  /** Whether the deposit factory's addresses are handed out (its code checked; `start()` it in the api and the worker). */
  depositFactory: FactoryTrust;
  close(): Promise<void>;
};

/** The configured URLs that carry keys or passwords: never in a log line. */
export function secretUrlsOf(config: AppConfig): string[] {
  return [config.ethRpcUrl, config.ethWsUrl, config.databaseUrl, config.redisUrl, config.smtpUrl].filter((u): u is string => Boolean(u));
}

export function createRuntime(config: AppConfig, name: 'api' | 'worker' | 'script'): Runtime {
  const logger = createLogger({ level: config.logLevel, name, secretUrls: secretUrlsOf(config) });
  const db = createDb({ url: config.databaseUrl, poolSize: config.databasePoolSize });
  const redis = createRedis(config.redisUrl, { name: `${name}-client`, forWorker: name === 'worker' });
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  // Queues get their own connection options so BullMQ manages blocking clients itself.
  const queues = createQueues(redis, config.queuePrefix);
  const chain = createChainClient(config.ethRpcUrl);
  const tracer = createTracer(chain, config.chainTracing);
  const depositFactory = createFactoryTrust({ config, chain, logger });
  const prices = createPriceSource({ config, redis, chain });
  return {
    config,
    logger,
    db,
    redis,
    queues,
    chain,
    tracer,
    prices,
    assetPrices: createAssetPrices({ config, chain, prices }),
    depositFactory,
    async close() {
      depositFactory.stop();
      await queues.close().catch((err) => logger.warn({ err }, 'closing queues failed'));
      redis.disconnect();
      await db.$disconnect().catch((err) => logger.warn({ err }, 'closing database failed'));
    },
  };
}
