import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRedis, loadConfig, type AppConfig } from '@shop/core';
import { createTestDatabase, ensureTemplateDatabase } from '../../scripts/db/test-database.ts';
import { startAnvil, type AnvilInstance } from '../../scripts/lib/anvil.ts';
import { installPriceFeedMock } from '../../scripts/lib/price-feed-mock.ts';
import { installTokenMocks } from '../../scripts/lib/token-mocks.ts';
import { deployDepositFactory } from '../../scripts/lib/deposit-factory.ts';
import { ensureServices } from '../../scripts/lib/services.ts';
import { ANVIL_ACCOUNTS } from '../../scripts/testing/chain.ts';

/**
 * An isolated shop for one benchmark, built the way the tests build theirs: a database
 * cloned from the migrated template, its own Redis key prefix, and on request its own
 * anvil with the price feed mock (and mock USDC and USDT with their feeds, as the tests'
 * chains have them). `vars` is the environment a child process (api,
 * worker) needs to join it; `config` is the same, parsed.
 */
export type BenchEnv = {
  vars: Record<string, string>;
  config: AppConfig;
  anvil?: AnvilInstance;
  close(): Promise<void>;
};

// Anvil's second dev account, the development receiving address.
export const RECEIVING_ADDRESS = ANVIL_ACCOUNTS[1];

/**
 * One benchmark buyer places and reports far more than a person would: the caps on buyers
 * are lifted unless a benchmark asks for the production ones (`caps: 'production'`, the
 * flash sale's many buyers).
 */
const LIFTED_CAPS = {
  MAX_OPEN_ORDERS_PER_USER: '100000000',
  MAX_HELD_TAGS_PER_USER: '100000000',
  MAX_UNPAID_STOCK_SHARE_PERCENT: '100',
  PAYMENT_REPORTS_PER_USER_PER_HOUR: '100000000',
  PAYMENT_REPORTS_PER_ORDER_PER_HOUR: '100000000',
};

export async function createBenchEnv(
  opts: { chain?: boolean; priceFeed?: boolean; deposits?: boolean; caps?: 'lifted' | 'production'; vars?: Record<string, string> } = {},
): Promise<BenchEnv> {
  const services = await ensureServices((msg) => console.log(`[bench] ${msg}`));
  const template = await ensureTemplateDatabase(services.postgresAdminUrl);
  const database = await createTestDatabase(services.postgresAdminUrl, template);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'shop-bench-'));
  let anvil: AnvilInstance | undefined;
  const queuePrefix = `bench${randomBytes(4).toString('hex')}`;

  const close = async () => {
    await anvil?.stop();
    await database.drop();
    await dropRedisPrefix(services.redisUrl, queuePrefix);
    await rm(tmp, { recursive: true, force: true });
  };

  try {
    if (opts.chain) {
      anvil = await startAnvil();
      if (opts.priceFeed !== false) {
        await installPriceFeedMock(anvil.rpcUrl, { priceUsd: '3000' });
        await installTokenMocks(anvil.rpcUrl);
      }
    }
    // A deposit factory for the receiving address: every order gets its deposit address.
    const factory = anvil && opts.deposits ? (await deployDepositFactory({ rpcUrl: anvil.rpcUrl, account: ANVIL_ACCOUNTS[0], receiver: RECEIVING_ADDRESS })).address : undefined;
    // Production settings unless a benchmark says otherwise; logs off (they would be
    // written to a pipe nobody reads, and cost what they cost in production anyway).
    const vars: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://127.0.0.1:5000',
      // The benchmarks measure the shop's work, not signing in: their admin has no second factor.
      ADMIN_2FA_REQUIRED: 'false',
      DATABASE_URL: database.url,
      REDIS_URL: services.redisUrl,
      QUEUE_PREFIX: queuePrefix,
      ETH_RPC_URL: anvil?.rpcUrl ?? 'http://127.0.0.1:9',
      // anvil serves WebSocket on the same port: the worker subscribes to new blocks.
      ...(anvil ? { ETH_WS_URL: anvil.rpcUrl.replace(/^http/, 'ws') } : {}),
      RECEIVING_ADDRESS,
      PAYOUT_ADDRESSES: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      JWT_SECRET: randomBytes(32).toString('hex'),
      // Production requires an SMTP server, which no benchmark runs: its letters are never
      // sent (a refused connection, retried by the e-mail queue). A benchmark that runs the
      // worker sets NODE_ENV=test, and its letters are written to MAIL_DIR instead.
      ...((opts.vars?.NODE_ENV ?? 'production') === 'production' ? { SMTP_URL: 'smtp://127.0.0.1:9' } : {}),
      MAIL_DIR: path.join(tmp, 'mail'),
      UPLOADS_DIR: path.join(tmp, 'uploads'),
      SERVE_WEB: 'false',
      ...(opts.caps === 'production' ? {} : LIFTED_CAPS),
      ...(factory ? { DEPOSIT_FACTORY_ADDRESS: factory } : {}),
      ...opts.vars,
    };
    return { vars, config: loadConfig(vars), anvil, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Deletes the benchmark's queue keys and price cache (bounded SCAN). */
async function dropRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = createRedis(redisUrl, { name: 'bench-cleanup' });
  try {
    let cursor = '0';
    for (let i = 0; i < 10_000; i++) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  } finally {
    redis.disconnect();
  }
}
