import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ANVIL_DEV_ACCOUNTS, createDb, DEV_RECEIVING_ADDRESS, hashPassword, loadConfig, newReferralCode } from '@shop/core';
import type { Address } from 'viem';
import { describeSeedAdmin, seed } from '../prisma/seed.ts';
import { migrate } from './db/migrate.ts';
import { isRpcUp } from './lib/anvil.ts';
import { DEV_RELAY_PRIVATE_KEY, DEV_SWEEPER_PRIVATE_KEY, startDevChain } from './lib/dev-chain.ts';
import { REPO_ROOT } from './lib/paths.ts';
import { ensureDevDepositFactory } from './lib/deposit-factory.ts';
import { installPriceFeedMock } from './lib/price-feed-mock.ts';
import { installMulticall3 } from './lib/multicall3.ts';
import { installTokenMocks } from './lib/token-mocks.ts';
import { ensureServices, withDatabase } from './lib/services.ts';

/**
 * `npm start`: from a fresh clone to a running shop with demo data. Services, migrate,
 * anvil with the price feed and the mock tokens, seed, build the web app, then api + worker; prints the
 * URL and the demo logins. Ctrl-C stops everything it started.
 */
const log = (msg: string) => console.log(`[start] ${msg}`);
const children: ChildProcess[] = [];
const stoppers: (() => Promise<void>)[] = [];

async function stopAll(code: number): Promise<never> {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
  for (const stop of stoppers) await stop().catch(() => {});
  process.exit(code);
}
process.once('SIGINT', () => void stopAll(0));
process.once('SIGTERM', () => void stopAll(0));

const services = await ensureServices(log);
const databaseUrl = process.env.DATABASE_URL && new URL(process.env.DATABASE_URL).pathname.length > 1 && !process.env.DATABASE_URL.endsWith('/postgres')
  ? process.env.DATABASE_URL
  : withDatabase(services.postgresAdminUrl, 'shop');
const { applied } = await migrate(databaseUrl);
log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');

let rpcUrl = process.env.ETH_RPC_URL ?? 'http://127.0.0.1:8545';
let wsUrl = process.env.ETH_WS_URL;
let depositFactory = process.env.DEPOSIT_FACTORY_ADDRESS;
let localChain = false;
if (!(await isRpcUp(rpcUrl))) {
  localChain = true;
  const port = Number(new URL(rpcUrl).port || 8545);
  // The chain is kept under .data/ with the database it belongs to (scripts/lib/dev-chain.ts).
  const anvil = await startDevChain({ dir: path.join(REPO_ROOT, '.data', 'chain'), port, databaseUrl, log });
  rpcUrl = anvil.rpcUrl;
  // anvil answers WebSocket on the same port: the worker hears of each block at once.
  wsUrl = rpcUrl.replace(/^http/, 'ws');
  stoppers.push(() => anvil.stop());
  log(`anvil (chain id 1) at ${rpcUrl}, chain kept in ${path.relative(REPO_ROOT, anvil.statePath)}`);
  await installPriceFeedMock(rpcUrl, { priceUsd: process.env.DEV_ETH_USD ?? '3000' });
  log(`mock Chainlink ETH/USD feed installed at ${process.env.DEV_ETH_USD ?? '3000'} USD (npm run chain:price -- 3150.25 to change it)`);
  // Kept with the chain: minted once, on the chain's first start (scripts/lib/token-mocks.ts).
  const tokens = await installTokenMocks(rpcUrl);
  log(
    `mock USDC and USDT at their mainnet addresses (${tokens.some((t) => t.minted) ? '10,000 of each minted to anvil accounts #0 to #9' : 'balances kept with the chain'}), ` +
      'their USD feeds at 1.00 (npm run chain:price -- --feed USDC 0.97 to move one)',
  );
  // The sweeper batches token sweeps through Multicall3, at its mainnet address here too.
  await installMulticall3(rpcUrl);
  const receiver = (process.env.RECEIVING_ADDRESS ?? DEV_RECEIVING_ADDRESS) as Address;
  const factory = await ensureDevDepositFactory({ rpcUrl, from: ANVIL_DEV_ACCOUNTS[0], receiver, statePath: path.join(REPO_ROOT, '.data', 'chain', 'deposit-factory.json') });
  depositFactory = factory.address;
  log(`deposit factory ${factory.deployed ? 'deployed' : 'kept'} at ${factory.address} (orders' deposit addresses, swept to ${receiver})`);
  if (!process.env.SWEEPER_PRIVATE_KEY && !process.env.SWEEPER_ADDRESS) log('the deposit sweeper pays its gas from anvil account #8 (SWEEPER_PRIVATE_KEY, a dev key)');
  if (!process.env.RELAY_PRIVATE_KEY && !process.env.RELAY_ADDRESS) log("buyers' signed USDC payments are sent from anvil account #9 (RELAY_PRIVATE_KEY, a dev key)");
} else {
  log(`using the Ethereum node at ${rpcUrl}`);
}

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV ?? 'development',
  DATABASE_URL: databaseUrl,
  REDIS_URL: services.redisUrl,
  ETH_RPC_URL: rpcUrl,
  ...(wsUrl ? { ETH_WS_URL: wsUrl } : {}),
  ...(depositFactory ? { DEPOSIT_FACTORY_ADDRESS: depositFactory } : {}),
  // The local chain carries mock USDC and USDT at their mainnet addresses: all three are taken.
  ...(localChain && !process.env.ACCEPTED_ASSETS ? { ACCEPTED_ASSETS: 'ETH,USDC,USDT' } : {}),
  // The local shop sweeps its deposit addresses: anvil's well-known dev account #8 pays the
  // gas (not #0, the dev wallet, nor #1, the receiving address). Only on the chain started
  // here, outside production: elsewhere the operator sets SWEEPER_PRIVATE_KEY or
  // SWEEPER_ADDRESS, or sweeping is off.
  ...(localChain && (process.env.NODE_ENV ?? 'development') !== 'production' && !process.env.SWEEPER_PRIVATE_KEY && !process.env.SWEEPER_ADDRESS
    ? { SWEEPER_PRIVATE_KEY: DEV_SWEEPER_PRIVATE_KEY }
    : {}),
  // And sends buyers' signed USDC payments from anvil's dev account #9, its own wallet (not the sweeper's).
  ...(localChain && (process.env.NODE_ENV ?? 'development') !== 'production' && !process.env.RELAY_PRIVATE_KEY && !process.env.RELAY_ADDRESS
    ? { RELAY_PRIVATE_KEY: DEV_RELAY_PRIVATE_KEY }
    : {}),
};
const config = loadConfig(env);
const db = createDb({ url: databaseUrl });
if (!config.seedAdminPassword) throw new Error('SEED_ADMIN_PASSWORD is required outside development');
const seeded = await seed(db, { email: config.seedAdminEmail, password: config.seedAdminPassword });
const demoUser = { email: 'shopper@example.com', password: 'shopper12345' };
// A second admin, to approve what the first asks for (Admin > Approvals): development only.
const demoApprover = { email: 'approver@example.com', password: 'approver12345' };
if (!config.isProduction) {
  for (const [u, name, isAdmin] of [[demoUser, 'Demo Shopper', false], [demoApprover, 'Second Admin', true]] as const) {
    if (await db.user.findUnique({ where: { email: u.email } })) continue;
    await db.user.create({ data: { name, email: u.email, isAdmin, passwordHash: await hashPassword(u.password), referralCode: newReferralCode() } });
  }
}
await db.$disconnect();
log(`seeded ${seeded.products} packages; ${describeSeedAdmin(seeded)}`);

log('building the web app...');
const build = spawnSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
  // Always a production bundle (minified React); the shop itself may run in development
  // mode, where the pay page also offers a dev wallet backed by anvil's account #0.
  env: { ...env, NODE_ENV: 'production', ...(config.isProduction ? {} : { VITE_DEV_WALLET: 'true', VITE_DEV_RPC_URL: rpcUrl }) },
});
if (build.status !== 0) await stopAll(build.status ?? 1);

for (const entry of ['api/src/server.ts', 'worker/src/main.ts']) {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: REPO_ROOT, stdio: 'inherit', env });
  child.once('exit', (code) => {
    if (code !== 0 && code !== null) {
      log(`${entry} exited with ${code}; stopping`);
      void stopAll(code);
    }
  });
  children.push(child);
}

const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
for (let i = 0; i < 150; i++) {
  const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
  if (ok) break;
  await new Promise((r) => setTimeout(r, 200));
}
const health = await fetch(`${url}/api/health`).then((r) => r.json() as Promise<{ status: string }>, () => ({ status: 'unreachable' }));
console.log(`
  ETH Shop is running: ${url}   (health: ${health.status})
  Admin:    ${seeded.adminEmail} / ${config.isProduction ? '(SEED_ADMIN_PASSWORD)' : config.seedAdminPassword}
  Shopper:  ${demoUser.email} / ${demoUser.password}${config.isProduction ? '' : `\n  Approver: ${demoApprover.email} / ${demoApprover.password} (a second admin, for Admin > Approvals)`}
  Queues:   ${url}/admin/queues (admins)
  Stop with Ctrl-C.
`);
