import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { forkTs } from '../../bench/lib/child.ts';
import { startAnvil, type AnvilInstance } from '../lib/anvil.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { installPriceFeedMock } from '../lib/price-feed-mock.ts';
import { COMPOSE_REQUIRED } from '../lib/services.ts';
import { withDatabaseName } from '../db/postgres-admin.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../testing/chain.ts';
import { START_LIMIT_MS } from '../testing/processes.ts';
import { freePort } from '../testing/smtp.ts';
import { parseDockerfile, replayBuild, type ReplayedStage } from './dockerfile.ts';

/**
 * The production path, checked without a Docker engine: the Dockerfile's COPY and RUN
 * steps replayed in a scratch folder (scripts/docker/dockerfile.ts), then the images'
 * commands run from what the stages hold: the one-shot migration on a new database,
 * the api and the worker in production mode, and the HEALTHCHECK. docker-compose.yml
 * is checked against the Dockerfile and the code.
 */
const DOCKERFILE = path.join(REPO_ROOT, 'Dockerfile');
let out: string;
let stages: Map<string, ReplayedStage>;
let anvil: AnvilInstance;
const steps: string[] = [];

beforeAll(async () => {
  out = await mkdtemp(path.join(os.tmpdir(), 'shop-image-'));
  stages = replayBuild({ dockerfile: DOCKERFILE, contextDir: REPO_ROOT, outDir: out, log: (line) => steps.push(line) });
  anvil = await startAnvil();
  await installPriceFeedMock(anvil.rpcUrl, { priceUsd: '3000' });
  // Two `npm ci` runs and a web build: minutes on a busy shared machine.
}, 1_200_000);
afterAll(async () => {
  await anvil?.stop();
  if (out) await rm(out, { recursive: true, force: true });
});

const app = (stage: ReplayedStage) => path.join(stage.root, stage.workdir);
/** A stage's command (node from this machine) with the stage's ENV and `env` on top. */
function command(stage: ReplayedStage, argv: string[], env: Record<string, string>) {
  return spawnSync(argv[0] === 'node' ? process.execPath : argv[0]!, argv.slice(1), {
    cwd: app(stage),
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...stage.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('the production image, replayed from the Dockerfile', () => {
  it('builds: the runtime stage holds production dependencies only, the web build and the Prisma client, and runs as a non-root user', () => {
    const runtime = stages.get('runtime')!;
    expect([...stages.keys()]).toEqual(['build', 'migrate', 'runtime']);
    const modules = path.join(app(runtime), 'node_modules');
    expect(existsSync(path.join(modules, 'tsx'))).toBe(true);
    for (const dev of ['vitest', 'vite', 'eslint', 'playwright-core', '@foundry-rs', 'autocannon']) expect(existsSync(path.join(modules, dev)), dev).toBe(false);
    expect(existsSync(path.join(app(runtime), 'web/dist/index.html'))).toBe(true);
    expect(existsSync(path.join(app(runtime), 'core/src/generated/prisma/client.ts'))).toBe(true);
    expect(runtime.user).toBe('node');
    expect(stages.get('migrate')!.user).toBe('node');
    expect(runtime.healthcheck).toEqual(['node', 'scripts/healthcheck.mjs']);
    expect(runtime.env.NODE_ENV).toBe('production');
  });

  it("migrates a new database with the migrate stage's command", () => {
    const migrate = stages.get('migrate')!;
    const url = withDatabaseName(inject('postgresAdminUrl'), `shop_image_${randomBytes(4).toString('hex')}`);
    const run = command(migrate, migrate.cmd!, { DATABASE_URL: url });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const migrations = readdirSync(path.join(REPO_ROOT, 'prisma/migrations')).filter((d) => /^\d+_/.test(d));
    expect(run.stdout).toContain(`Applied ${migrations.length} migration(s)`);
    const again = command(migrate, migrate.cmd!, { DATABASE_URL: url });
    expect(again.stdout).toContain('No pending migrations');
    const dropped = spawnSync('psql', [inject('postgresAdminUrl'), '-c', `DROP DATABASE ${new URL(url).pathname.slice(1)} WITH (FORCE)`], { encoding: 'utf8' });
    expect(dropped.status, dropped.stderr).toBe(0);
  });

  it('runs the api and the worker from the runtime stage in production; both pass the HEALTHCHECK', async () => {
    const runtime = stages.get('runtime')!;
    const migrate = stages.get('migrate')!;
    const databaseUrl = withDatabaseName(inject('postgresAdminUrl'), `shop_image_${randomBytes(4).toString('hex')}`);
    expect(command(migrate, migrate.cmd!, { DATABASE_URL: databaseUrl }).status).toBe(0);
    const port = await freePort();
    const heartbeat = path.join(out, 'heartbeat');
    const env = {
      ...runtime.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL: inject('redisUrl'),
      QUEUE_PREFIX: `img${randomBytes(4).toString('hex')}`,
      ETH_RPC_URL: anvil.rpcUrl,
      RECEIVING_ADDRESS: ANVIL_ACCOUNTS[1],
      PAYOUT_ADDRESSES: ANVIL_ACCOUNTS[0],
      JWT_SECRET: randomBytes(32).toString('hex'),
      SMTP_URL: 'smtp://127.0.0.1:9',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      UPLOADS_DIR: path.join(out, 'uploads'),
      WORKER_HEARTBEAT_FILE: heartbeat,
    };
    const compose = parseYaml(readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) as ComposeFile;
    const [apiEntry, workerEntry] = [runtime.cmd!, compose.services.worker!.command!].map((argv) => {
      expect(argv.slice(0, 3)).toEqual(['node', '--import', 'tsx']);
      return path.join(app(runtime), argv[3]!);
    });
    const api = forkTs(apiEntry!, env, 'image-api', { cwd: app(runtime), cleanEnv: true });
    const worker = forkTs(workerEntry!, { ...env, SHOP_ROLE: 'worker' }, 'image-worker', { cwd: app(runtime), cleanEnv: true });
    try {
      await waitFor('the api of the image to answer', async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status === 200, START_LIMIT_MS, 250);
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const apiCheck = command(runtime, runtime.healthcheck!, { PORT: String(port) });
      expect(apiCheck.status, apiCheck.stdout + apiCheck.stderr).toBe(0);
      await waitFor('the worker heartbeat', async () => existsSync(heartbeat), START_LIMIT_MS, 250);
      const workerCheck = command(runtime, runtime.healthcheck!, { SHOP_ROLE: 'worker', WORKER_HEARTBEAT_FILE: heartbeat });
      expect(workerCheck.status).toBe(0);
      expect(command(runtime, runtime.healthcheck!, { SHOP_ROLE: 'worker', WORKER_HEARTBEAT_FILE: path.join(out, 'none') }).status).toBe(1);
    } finally {
      await api.stop();
      await worker.stop();
      spawnSync('psql', [inject('postgresAdminUrl'), '-c', `DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`]);
    }
    expect(api.exitCode(), api.output().slice(-2000)).toBe('0');
    expect(worker.exitCode(), worker.output().slice(-2000)).toBe('0');
  });
});

type ComposeService = { build?: { context: string; target?: string }; image?: string; command?: string[]; environment?: Record<string, string>; volumes?: string[] };
type ComposeFile = { services: Record<string, ComposeService> };

describe('docker-compose.yml', () => {
  const compose = parseYaml(readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as ComposeFile;
  const targets = parseDockerfile(readFileSync(DOCKERFILE, 'utf8')).map((s) => s.name);
  const example = readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8');

  it('builds only targets the Dockerfile has, runs only files the repository has, and mounts only files it has', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.build?.target) expect(targets, name).toContain(service.build.target);
      for (const arg of service.command ?? []) {
        if (/\.(ts|mjs)$/.test(arg)) expect(existsSync(path.join(REPO_ROOT, arg)), `${name}: ${arg}`).toBe(true);
      }
      for (const volume of service.volumes ?? []) {
        if (volume.startsWith('./')) expect(existsSync(path.join(REPO_ROOT, volume.split(':')[0]!)), `${name}: ${volume}`).toBe(true);
      }
    }
    expect(compose.services.api!.build?.target).toBe('runtime');
    expect(compose.services.migrate!.build?.target).toBe('migrate');
  });

  it('gives the app services every variable production requires, and only variables the shop knows', () => {
    for (const name of ['api', 'worker', 'migrate']) {
      const env = compose.services[name]!.environment!;
      for (const required of ['DATABASE_URL', 'REDIS_URL', ...COMPOSE_REQUIRED]) expect(env[required], `${name}: ${required}`).toBeTruthy();
      expect(env.NODE_ENV).toBe('production');
      for (const key of Object.keys(env)) {
        if (key !== 'SHOP_ROLE') expect(example, `${name}: ${key} is not in .env.example`).toMatch(new RegExp(`^${key}=`, 'm'));
      }
    }
    expect(compose.services.worker!.environment!.SHOP_ROLE).toBe('worker');
  });
});
