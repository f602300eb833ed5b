import { parseEther, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { shopNetwork } from '../contract/network.ts';
import type { AssetCode } from '../contract/json-parts.ts';
import { acceptedAssets, acceptedOnChain } from './config-assets.ts';
import { relayConfig, relayEnv, relayWalletChecks } from './config-relay.ts';
import { address, bool, decimalAmount, DEMO_DISPLAY_CURRENCIES, displayCurrencies, privateKey } from './config-fields.ts';

/**
 * Configuration, parsed once from the environment. Every variable is documented in
 * `.env.example`. Development and test get safe defaults; production must set every
 * secret and every address explicitly (fail fast, naming the variable).
 */
const DEV_JWT_SECRET = 'dev-only-secret-change-me-0123456789abcdef';
// Anvil's second dev account: a fine receiving address on the local chain only.
export const DEV_RECEIVING_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
export const CHAINLINK_ETH_USD_FEED = '0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419';
/** Anvil's ten funded, unlocked dev accounts (well-known keys): the payout wallets of a development shop only. */
export const ANVIL_DEV_ACCOUNTS = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
  '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
  '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
  '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
  '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
  '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
] as const;
/** The payout wallet of a development shop: anvil's dev account #5. */
export const DEV_PAYOUT_ADDRESS = ANVIL_DEV_ACCOUNTS[5];

const decimalString = z.string().regex(/^\d+(\.\d{1,2})?$/, 'must be a non-negative amount with at most 2 decimals');

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
    HOST: z.string().default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(5000),
    PUBLIC_URL: z.string().url().optional(),
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL').optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
    QUEUE_PREFIX: z.string().regex(/^[a-zA-Z0-9_-]+$/).default('shop'),
    ETH_RPC_URL: z.string().url().optional(),
    // A WebSocket endpoint of the same node: new blocks arrive by subscription (eth_subscribe newHeads).
    ETH_WS_URL: z.string().regex(/^wss?:\/\//, 'must be a ws:// or wss:// URL').optional(),
    BLOCK_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
    HEAD_MAX_AGE_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
    CHAIN_ID: z.coerce.number().int().positive().default(1),
    // A local chain with published keys (anvil's, as npm start runs): a test-network banner, no explorer, the dev wallet.
    DEV_CHAIN: bool.optional(),
    // Names the network on every page's test-network banner and in e-mails (a staging shop: "Sepolia staging").
    SHOP_NETWORK_LABEL: z.string().trim().regex(/^[\p{L}\p{N}][\p{L}\p{N} .,:()'/-]{0,39}$/u, 'must be 1-40 letters, digits, spaces or . , : ( ) \' / -, starting with a letter or digit').optional(),
    // The block explorer's origin for transaction links (https://etherscan.io), or none.
    EXPLORER_URL: z.string().trim().refine((v) => v === 'none' || (/^https?:\/\/[^\s?#]+$/.test(v) && URL.canParse(v)), 'must be an http(s) URL without query or fragment (https://sepolia.etherscan.io), or none').optional(),
    // Currencies prices may also be shown in, at a configured rate: AZN:1.70 or AZN:1.70:2026-11-29 (core/src/contract/locales.ts).
    DISPLAY_CURRENCIES: displayCurrencies.optional(),
    RECEIVING_ADDRESS: address.optional(),
    ETH_USD_FEED_ADDRESS: address.default(CHAINLINK_ETH_USD_FEED),
    // The deposit factory (core/src/deposits/DepositFactory.sol) for the receiving address: `npm run deposits:deploy`.
    DEPOSIT_FACTORY_ADDRESS: address.optional(),
    // Sweeping deposit addresses (core/src/deposit-sweeper/sweeper.ts): the gas wallet, signed here
    // (SWEEPER_PRIVATE_KEY) or by an external signer behind the node (SWEEPER_ADDRESS); neither: off.
    SWEEPER_PRIVATE_KEY: privateKey.optional(),
    SWEEPER_ADDRESS: address.optional(),
    SWEEP_INTERVAL_MS: z.coerce.number().int().min(1000).default(600_000),
    // After a sweep is sent, the sweeper runs again this soon to follow it (and again while it
    // is on its way, until its next scheduled run): mined, it is confirmed within seconds.
    SWEEP_FOLLOW_MS: z.coerce.number().int().min(200).default(10_000),
    SWEEP_BATCH_SIZE: z.coerce.number().int().min(1).max(200).default(50),
    SWEEP_MAX_GAS_PRICE_GWEI: decimalAmount.default('30'),
    SWEEP_GAS_BUDGET_ETH: decimalAmount.default('0.05'),
    ...relayEnv,
    PRICE_MAX_AGE_SECONDS: z.coerce.number().int().positive().default(3600),
    PRICE_CACHE_SECONDS: z.coerce.number().int().min(0).default(10),
    // A stablecoin within this many basis points of a dollar (its Chainlink feed) counts one
    // token as one dollar; off it, no new quotes in it. At most 10%: beyond that it is no peg.
    STABLECOIN_PEG_TOLERANCE_BPS: z.coerce.number().int().min(0).max(1000).default(100),
    ACCEPTED_ASSETS: acceptedAssets,
    PAYMENT_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).optional(),
    QUOTE_TTL_SECONDS: z.coerce.number().int().min(30).default(900),
    PAYMENT_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
    MEMPOOL_GRACE_MINUTES: z.coerce.number().int().min(0).max(1440).default(30),
    CATALOGUE_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    HEALTH_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
    METRICS_COUNT_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
    // How long one health round waits for each dependency before calling it degraded.
    HEALTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
    INDEXER_INTERVAL_MS: z.coerce.number().int().min(100).default(1000),
    INDEXER_START_BLOCK: z.coerce.bigint().optional(),
    FINALITY_DEPTH: z.coerce.number().int().min(1).max(10_000).default(64),
    CHAIN_TRACING: z.enum(['auto', 'debug', 'parity', 'off']).default('auto'),
    SWEEP_STALE_MS: z.coerce.number().int().min(0).default(30_000),
    JOB_LOCK_MS: z.coerce.number().int().min(1000).default(30_000),
    MAINTENANCE_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
    RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1000).default(300_000),
    // The full audit of the books (cron, UTC): weekly, Sunday 03:00, by default.
    RECONCILE_AUDIT_CRON: z.string().min(9).default('0 3 * * 0'),
    LATE_PAYMENT_HOURS: z.coerce.number().int().min(1).default(24),
    REFERRAL_REWARD_PERCENT: decimalString.default('10'),
    CASHOUT_MINIMUM: decimalString.default('20'),
    // A cashout to a wallet the account was never paid to waits this long (0: not at all; the e-mail goes out still).
    NEW_WALLET_HOLD_HOURS: z.coerce.number().min(0).max(720).default(24),
    DAILY_CREDIT_CRON: z.string().default('0 0 * * *'),
    DAILY_CREDIT_TZ: z.string().default('UTC'),
    DAILY_CREDIT_CATCH_UP_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    SESSION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    COOKIE_SECURE: bool.optional(),
    // Admins must turn on two-factor sign-in before any admin page or call works.
    ADMIN_2FA_REQUIRED: bool.optional(),
    SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
    MAIL_FROM: z.string().default('ETH Shop <no-reply@eth-shop.local>'),
    MAIL_DIR: z.string().default('.data/mail'),
    OPERATOR_EMAIL: z.string().email().default('operator@eth-shop.local'),
    OPERATOR_NAME: z.string().default('Shop operator'),
    METRICS_TOKEN: z.string().min(16).optional(),
    UPLOADS_DIR: z.string().default('uploads'),
    UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(2 * 1024 * 1024),
    WEB_DIST_DIR: z.string().default('web/dist'),
    SERVE_WEB: bool.optional(),
    RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().positive().default(10),
    MAX_OPEN_ORDERS_PER_USER: z.coerce.number().int().positive().default(3),
    MAX_HELD_TAGS_PER_USER: z.coerce.number().int().positive().default(20),
    MAX_UNPAID_STOCK_SHARE_PERCENT: z.coerce.number().int().min(1).max(100).default(25),
    PAYMENT_REPORTS_PER_USER_PER_HOUR: z.coerce.number().int().positive().default(30),
    PAYMENT_REPORTS_PER_ORDER_PER_HOUR: z.coerce.number().int().positive().default(10),
    MAX_PENDING_REPORTS_PER_ORDER: z.coerce.number().int().positive().default(3),
    TRUST_PROXY: z
      .string()
      .trim()
      .regex(/^(true|false|\d{1,2}|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/, 'must be true, false, a number of proxy hops, or a comma-separated list of addresses, subnets or loopback/linklocal/uniquelocal')
      .default('loopback'),
    WORKER_HEARTBEAT_FILE: z.string().default('/tmp/shop-worker-heartbeat'),
    PAYOUT_TOLERANCE_BPS: z.coerce.number().int().min(0).max(1000).default(50),
    // Balance increases, refunds and cashout payouts worth more than this (USD) wait for a second admin.
    APPROVAL_THRESHOLD_USD: z.string().trim().regex(/^\d{1,12}(\.\d{1,2})?$/, 'must be an amount in USD, such as 500 or 500.00').default('500'),
    // A package whose daily credit over its term is more than its price times this creates money: publishing it, or a change of its terms that gives more, waits for a second admin.
    PACKAGE_CREDIT_MULTIPLE: z.string().trim().regex(/^\d{1,6}(\.\d{1,4})?$/, 'must be a non-negative number such as 1 or 1.5').default('1'),
    PAYOUT_RECHECK_MS: z.coerce.number().int().min(100).default(15_000),
    PAYOUT_GIVE_UP_MINUTES: z.coerce.number().int().min(1).default(60),
    // The shop's wallets that pay cashouts and refunds (its multisig too): comma-separated.
    PAYOUT_ADDRESSES: z.string().transform((v) => v.split(',').map((a) => a.trim()).filter(Boolean)).pipe(z.array(address).min(1, 'must name at least one address')).optional(),
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).default(15_000),
    WEBHOOK_DISPATCH_MS: z.coerce.number().int().min(100).default(1000),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    WEBHOOK_ALLOW_HTTP: bool.optional(),
    WEBHOOK_ALLOW_PRIVATE: bool.optional(),
    RETENTION_INTERVAL_MS: z.coerce.number().int().min(1000).default(3_600_000),
    WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    SESSION_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
    RECONCILE_RUNS_KEPT: z.coerce.number().int().min(1).max(1_000_000).default(200),
    SEED_ADMIN_EMAIL: z.string().email().default('admin@example.com'),
    SEED_ADMIN_PASSWORD: z.string().min(8).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    // PUBLIC_URL: the origin of the links the shop e-mails (password resets among them).
    const required = ['DATABASE_URL', 'REDIS_URL', 'ETH_RPC_URL', 'RECEIVING_ADDRESS', 'JWT_SECRET', 'SMTP_URL', 'PAYOUT_ADDRESSES', 'PUBLIC_URL'] as const;
    for (const key of required.filter((k) => !env[k])) ctx.addIssue({ code: 'custom', path: [key], message: 'is required in production' });
  })
  .superRefine(acceptedOnChain)
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.EXPLORER_URL?.startsWith('http:')) {
      ctx.addIssue({ code: 'custom', path: ['EXPLORER_URL'], message: 'must be an https:// URL in production' });
    }
  })
  .superRefine((env, ctx) => {
    relayWalletChecks(env, ctx);
    if (env.SWEEPER_PRIVATE_KEY && env.SWEEPER_ADDRESS) {
      ctx.addIssue({ code: 'custom', path: ['SWEEPER_ADDRESS'], message: 'set SWEEPER_PRIVATE_KEY (signed here) or SWEEPER_ADDRESS (an external signer), not both' });
    }
    // A sweep moves ETH to the receiving address: from a payout wallet it could pass for a payout to it.
    const key = privateKey.safeParse(env.SWEEPER_PRIVATE_KEY);
    const sweeper = (key.success ? privateKeyToAccount(key.data as `0x${string}`).address : env.SWEEPER_ADDRESS)?.toLowerCase();
    if (env.NODE_ENV === 'production' && sweeper && Array.isArray(env.PAYOUT_ADDRESSES) && env.PAYOUT_ADDRESSES.some((a) => String(a).toLowerCase() === sweeper)) {
      ctx.addIssue({ code: 'custom', path: [env.SWEEPER_PRIVATE_KEY ? 'SWEEPER_PRIVATE_KEY' : 'SWEEPER_ADDRESS'], message: 'the gas wallet must not be one of PAYOUT_ADDRESSES' });
    }
    // A transfer from the receiving address would pass for a payout, and a payment to it from a payout wallet for a payment.
    const receiving = (env.RECEIVING_ADDRESS ?? DEV_RECEIVING_ADDRESS).toLowerCase();
    if (Array.isArray(env.PAYOUT_ADDRESSES) && env.PAYOUT_ADDRESSES.some((a) => String(a).toLowerCase() === receiving)) {
      ctx.addIssue({ code: 'custom', path: ['PAYOUT_ADDRESSES'], message: 'must not list the receiving address (RECEIVING_ADDRESS)' });
    }
  });

export type AppConfig = ReturnType<typeof buildConfig>;

type Env = z.infer<typeof schema>;

function buildConfig(env: z.infer<typeof schema>) {
  const dev = env.NODE_ENV !== 'production';
  return Object.freeze({ ...processConfig(env, dev), ...chainConfig(env, dev), ...shopConfig(env, dev) });
}

/** The processes and the services they connect to. */
function processConfig(env: Env, dev: boolean) {
  return {
    env: env.NODE_ENV,
    isProduction: !dev,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    host: env.HOST,
    port: env.PORT,
    publicUrl: env.PUBLIC_URL,
    databaseUrl: env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/shop',
    databasePoolSize: env.DATABASE_POOL_SIZE,
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    queuePrefix: env.QUEUE_PREFIX,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    mailDir: env.MAIL_DIR,
    operatorEmail: env.OPERATOR_EMAIL,
    operatorName: env.OPERATOR_NAME,
    metricsToken: env.METRICS_TOKEN,
    uploadsDir: env.UPLOADS_DIR,
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    webDistDir: env.WEB_DIST_DIR,
    serveWeb: env.SERVE_WEB ?? true,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    workerHeartbeatFile: env.WORKER_HEARTBEAT_FILE,
    seedAdminEmail: env.SEED_ADMIN_EMAIL,
    seedAdminPassword: env.SEED_ADMIN_PASSWORD ?? (dev ? 'admin12345' : undefined),
  };
}

/** The node, the receiving address and how payments are read and counted. */
function chainConfig(env: Env, dev: boolean) {
  return {
    ethRpcUrl: env.ETH_RPC_URL ?? 'http://127.0.0.1:8545',
    ethWsUrl: env.ETH_WS_URL,
    blockPollMs: env.BLOCK_POLL_MS,
    headMaxAgeMs: env.HEAD_MAX_AGE_MS,
    chainId: env.CHAIN_ID,
    // Outside production the chain is the local anvil npm start runs, unless DEV_CHAIN=false.
    network: shopNetwork({ chainId: env.CHAIN_ID, developmentChain: env.DEV_CHAIN ?? dev, label: env.SHOP_NETWORK_LABEL, explorerUrl: env.EXPLORER_URL }),
    // npm start's demo shop shows AZN at a sample rate; a deployed shop names its own.
    displayCurrencies: env.DISPLAY_CURRENCIES ?? (dev ? displayCurrencies.parse(DEMO_DISPLAY_CURRENCIES) : []),
    receivingAddress: (env.RECEIVING_ADDRESS ?? DEV_RECEIVING_ADDRESS) as `0x${string}`,
    ethUsdFeedAddress: env.ETH_USD_FEED_ADDRESS as `0x${string}`,
    depositFactoryAddress: env.DEPOSIT_FACTORY_ADDRESS as `0x${string}` | undefined,
    priceMaxAgeSeconds: env.PRICE_MAX_AGE_SECONDS,
    priceCacheSeconds: env.PRICE_CACHE_SECONDS,
    stablecoinPegToleranceBps: env.STABLECOIN_PEG_TOLERANCE_BPS,
    /** ETH first, then the accepted tokens in the order they were named. */
    acceptedAssets: ['ETH', ...env.ACCEPTED_ASSETS.filter((a) => a !== 'ETH')] as AssetCode[],
    paymentConfirmations: env.PAYMENT_CONFIRMATIONS ?? (dev ? 1 : 12),
    quoteTtlSeconds: env.QUOTE_TTL_SECONDS,
    paymentWindowMinutes: env.PAYMENT_WINDOW_MINUTES,
    mempoolGraceMinutes: env.MEMPOOL_GRACE_MINUTES,
    latePaymentHours: env.LATE_PAYMENT_HOURS,
    indexerIntervalMs: env.INDEXER_INTERVAL_MS,
    indexerStartBlock: env.INDEXER_START_BLOCK,
    finalityDepth: env.FINALITY_DEPTH,
    chainTracing: env.CHAIN_TRACING,
    ...sweepConfig(env),
  };
}

/**
 * The deposit sweeper's gas wallet and limits. `sweeperAddress` (lower-cased) is the key's
 * account or the external signer's; null: sweeping is off. No default key, anywhere
 * (`npm start` passes a dev key of its own to the local shop).
 */
function sweepConfig(env: Env) {
  const key = env.SWEEPER_PRIVATE_KEY as `0x${string}` | undefined;
  const sweeperAddress = (key ? privateKeyToAccount(key).address : env.SWEEPER_ADDRESS)?.toLowerCase() as `0x${string}` | undefined;
  return {
    sweeperPrivateKey: key,
    sweeperAddress: sweeperAddress ?? null,
    sweepIntervalMs: env.SWEEP_INTERVAL_MS,
    sweepFollowMs: env.SWEEP_FOLLOW_MS,
    sweepBatchSize: env.SWEEP_BATCH_SIZE,
    /** Nothing is sent while the node suggests a higher maxFeePerGas. */
    sweepMaxFeePerGasWei: parseGwei(env.SWEEP_MAX_GAS_PRICE_GWEI),
    /** Fees of the sweeps of a rolling 24 hours (the worst case of those still on their way). */
    sweepGasBudgetWei: parseEther(env.SWEEP_GAS_BUDGET_ETH),
    ...relayConfig(env),
  };
}

/** The shop's rules and the jobs that keep them. */
function shopConfig(env: Env, dev: boolean) {
  return {
    catalogueCacheMs: env.CATALOGUE_CACHE_MS,
    healthCacheMs: env.HEALTH_CACHE_MS,
    metricsCountCacheMs: env.METRICS_COUNT_CACHE_MS,
    healthTimeoutMs: env.HEALTH_TIMEOUT_MS,
    maintenanceIntervalMs: env.MAINTENANCE_INTERVAL_MS,
    reconcileIntervalMs: env.RECONCILE_INTERVAL_MS,
    reconcileAuditCron: env.RECONCILE_AUDIT_CRON,
    jobLockMs: env.JOB_LOCK_MS,
    sweepStaleMs: env.SWEEP_STALE_MS,
    referralRewardPercent: env.REFERRAL_REWARD_PERCENT,
    cashoutMinimum: env.CASHOUT_MINIMUM,
    newWalletHoldHours: env.NEW_WALLET_HOLD_HOURS,
    dailyCreditCron: env.DAILY_CREDIT_CRON,
    dailyCreditTz: env.DAILY_CREDIT_TZ,
    dailyCreditCatchUpDays: env.DAILY_CREDIT_CATCH_UP_DAYS,
    jwtSecret: env.JWT_SECRET ?? DEV_JWT_SECRET,
    sessionDays: env.SESSION_DAYS,
    cookieSecure: env.COOKIE_SECURE ?? !dev,
    admin2faRequired: env.ADMIN_2FA_REQUIRED ?? !dev,
    rateLimitAuthPerMinute: env.RATE_LIMIT_AUTH_PER_MINUTE,
    maxOpenOrdersPerUser: env.MAX_OPEN_ORDERS_PER_USER,
    maxHeldTagsPerUser: env.MAX_HELD_TAGS_PER_USER,
    maxUnpaidStockSharePercent: env.MAX_UNPAID_STOCK_SHARE_PERCENT,
    paymentReportsPerUserPerHour: env.PAYMENT_REPORTS_PER_USER_PER_HOUR,
    paymentReportsPerOrderPerHour: env.PAYMENT_REPORTS_PER_ORDER_PER_HOUR,
    maxPendingReportsPerOrder: env.MAX_PENDING_REPORTS_PER_ORDER,
    payoutToleranceBps: env.PAYOUT_TOLERANCE_BPS,
    approvalThresholdUsd: env.APPROVAL_THRESHOLD_USD,
    packageCreditMultiple: env.PACKAGE_CREDIT_MULTIPLE,
    payoutRecheckMs: env.PAYOUT_RECHECK_MS,
    payoutGiveUpMinutes: env.PAYOUT_GIVE_UP_MINUTES,
    // Lower-cased. Outside production, anvil's dev account #5 (the dev shop pays out from it;
    // the other dev accounts are buyers' wallets, which a payout may go to).
    payoutAddresses: (env.PAYOUT_ADDRESSES ?? (dev ? [DEV_PAYOUT_ADDRESS] : [])).map((a) => a.toLowerCase()),
    webhookRetryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
    webhookDispatchMs: env.WEBHOOK_DISPATCH_MS,
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    // Plain-http endpoints on a loopback host: development and tests only.
    webhookAllowHttp: env.WEBHOOK_ALLOW_HTTP ?? dev,
    // Endpoints on private, loopback or link-local addresses: development only, unless set.
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE ?? dev,
    retentionIntervalMs: env.RETENTION_INTERVAL_MS,
    webhookRetentionDays: env.WEBHOOK_RETENTION_DAYS,
    sessionRetentionDays: env.SESSION_RETENTION_DAYS,
    reconcileRunsKept: env.RECONCILE_RUNS_KEPT,
  };
}

/** Express's `trust proxy` setting: a boolean, a hop count, or a list of addresses/subnets. */
function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses configuration from an environment; throws a ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // Empty strings count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return buildConfig(parsed.data);
}

let cached: AppConfig | undefined;
/** The process-wide configuration, parsed on first use. */
export function getConfig(): AppConfig {
  cached ??= loadConfig();
  return cached;
}
