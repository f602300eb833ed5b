import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { ANVIL_DEV_ACCOUNTS, createRuntime, DEV_RECEIVING_ADDRESS, loadConfig, type AppConfig, type Runtime } from '@shop/core';
import { createTestDatabase } from '../db/test-database.ts';
import { startAnvil, type AnvilInstance } from '../lib/anvil.ts';
import { deployDepositFactory } from '../lib/deposit-factory.ts';
import { installPriceFeedMock } from '../lib/price-feed-mock.ts';
import { installMulticall3 } from '../lib/multicall3.ts';
import { installTokenMocks } from '../lib/token-mocks.ts';

export type TestEnv = {
  config: AppConfig;
  runtime: Runtime;
  anvil?: AnvilInstance;
  close(): Promise<void>;
};

export type TestEnvOptions = {
  chain?: boolean;
  ethUsd?: string;
  deposits?: boolean;
  /** Deploys the deposit factory to configure instead of the shop's genuine one (a look-alike, say). */
  depositFactory?: (rpcUrl: string, receiver: `0x${string}`) => Promise<`0x${string}`>;
  env?: Record<string, string>;
};

/**
 * An isolated world for one test file: its own database cloned from the migrated
 * template, its own Redis key prefix, and (on request) its own anvil with the price
 * feed mock, mock USDC and USDT at their mainnet addresses with 10,000 of each for every
 * dev account and their USD feeds at 1.00 (scripts/lib/token-mocks.ts: about 0.1 s, no
 * block mined), Multicall3 at its mainnet address (scripts/lib/multicall3.ts), and, unless `deposits: false`, a deposit factory for the receiving
 * address, so every order gets its deposit address as in a shop that offers them. Call
 * `close()` in afterAll.
 */
export async function createTestEnv(opts: TestEnvOptions = {}): Promise<TestEnv> {
  const database = await createTestDatabase(inject('postgresAdminUrl'), inject('templateDatabase'));
  const anvil = opts.chain ? await startAnvil() : undefined;
  if (anvil) {
    await installPriceFeedMock(anvil.rpcUrl, { priceUsd: opts.ethUsd ?? '3000' });
    await installTokenMocks(anvil.rpcUrl);
    await installMulticall3(anvil.rpcUrl);
  }
  const receiver = (opts.env?.RECEIVING_ADDRESS ?? DEV_RECEIVING_ADDRESS) as `0x${string}`;
  const deploy = opts.depositFactory ?? (async (rpcUrl: string) => (await deployDepositFactory({ rpcUrl, account: ANVIL_DEV_ACCOUNTS[0], receiver })).address);
  const factory = anvil && opts.deposits !== false && !opts.env?.DEPOSIT_FACTORY_ADDRESS ? await deploy(anvil.rpcUrl, receiver) : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '5',
    REDIS_URL: inject('redisUrl'),
    QUEUE_PREFIX: `t${randomBytes(5).toString('hex')}`,
    ETH_RPC_URL: anvil?.rpcUrl ?? 'http://127.0.0.1:9',
    UPLOADS_DIR: `.data/test-uploads/${randomBytes(4).toString('hex')}`,
    MAIL_DIR: `.data/test-mail/${randomBytes(4).toString('hex')}`,
    SERVE_WEB: 'false',
    // Limits meant for people: tests that place many orders or reports as one user
    // would hit them; the tests of the limits set their own.
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    MAX_OPEN_ORDERS_PER_USER: '1000',
    PAYMENT_REPORTS_PER_USER_PER_HOUR: '100000',
    PAYMENT_REPORTS_PER_ORDER_PER_HOUR: '100000',
    // Tests read health right after changing the world (a halted indexer, Redis stopped):
    // a fresh round each time; the cache's own test sets its period.
    HEALTH_CACHE_MS: '0',
    // A healthy dependency on a busy shared machine may take seconds to answer; the tests
    // of a dependency that is down see it refused at once, not timed out.
    HEALTH_TIMEOUT_MS: '30000',
    // A day's wait before a first cashout to a wallet is paid: the tests of that wait set it.
    NEW_WALLET_HOLD_HOURS: '0',
    // Tests run the deposit sweeper themselves: no runs of its own following a sweep it sent
    // (as long as SWEEP_INTERVAL_MS, so none); the test of the follow-up sets its pace.
    SWEEP_FOLLOW_MS: '600000',
    ...(factory ? { DEPOSIT_FACTORY_ADDRESS: factory } : {}),
    ...opts.env,
  });
  const runtime = createRuntime(config, 'api');
  // As the api does when it starts: the deposit factory's code checked before the first order.
  // Without a chain there is no node to ask: the factory stays unchecked (no deposit address).
  if (anvil) await runtime.depositFactory.start();
  return {
    config,
    runtime,
    anvil,
    async close() {
      await runtime.close();
      await anvil?.stop();
      await database.drop();
    },
  };
}
