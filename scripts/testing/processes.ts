import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { createServer } from 'node:net';
import path from 'node:path';
import type { AppConfig } from '@shop/core';
import { REPO_ROOT } from '../lib/paths.ts';
import { waitFor } from './chain.ts';

/**
 * The api and the worker as the processes `npm start` runs (api/src/server.ts,
 * worker/src/main.ts), joined to a test's world (its database, Redis prefix, anvil).
 * Each keeps the tail of what it printed, for a failure message.
 */
export type ShopProcess = {
  name: string;
  url?: string;
  proc: ChildProcess;
  alive(): boolean;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
};

/**
 * How long a process may take to report itself started (the api answering /api/health, the
 * worker's first heartbeat): starting tsx and importing the app takes seconds on a quiet
 * machine and can take minutes on a busy one. Only a process that never starts waits it out.
 */
export const START_LIMIT_MS = 180_000;

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** The environment that joins a process to `config`'s world; `extra` on top. */
export function processEnv(config: AppConfig, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    QUEUE_PREFIX: config.queuePrefix,
    ETH_RPC_URL: config.ethRpcUrl,
    RECEIVING_ADDRESS: config.receivingAddress,
    PAYOUT_ADDRESSES: config.payoutAddresses.join(','),
    JWT_SECRET: config.jwtSecret,
    MAIL_DIR: config.mailDir,
    SERVE_WEB: 'false',
    PAYMENT_CONFIRMATIONS: String(config.paymentConfirmations),
    ...extra,
  };
}

function start(name: string, entry: string, env: NodeJS.ProcessEnv): ShopProcess {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, entry)], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  let text = '';
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString("utf8")).slice(-8_000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const alive = () => proc.exitCode === null && proc.signalCode === null;
  return {
    name,
    proc,
    alive,
    output: () => text,
    kill: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (!alive()) return resolve();
        proc.once('exit', () => resolve());
        proc.kill(signal);
      }),
  };
}

/** An api process on a free port, once it answers /api/health. */
export async function startApiProcess(name: string, env: NodeJS.ProcessEnv): Promise<ShopProcess> {
  const port = await freePort();
  const p = start(name, 'api/src/server.ts', { ...env, HOST: '127.0.0.1', PORT: String(port) });
  p.url = `http://127.0.0.1:${port}`;
  await waitFor(`${name} to answer`, async () => {
    if (!p.alive()) throw new Error(`${name} exited: ${p.output()}`);
    return fetch(`${p.url}/api/health`).then((r) => r.status === 200, () => false);
  }, START_LIMIT_MS, 200);
  return p;
}

/** A worker process (every processor, the schedules and the block watcher), once it has written its first heartbeat. */
export async function startWorkerProcess(name: string, env: NodeJS.ProcessEnv): Promise<ShopProcess> {
  const heartbeat = path.join(os.tmpdir(), `shop-heartbeat-${randomBytes(6).toString('hex')}`);
  const p = start(name, 'worker/src/main.ts', { ...env, WORKER_HEARTBEAT_FILE: heartbeat });
  await waitFor(`${name} to start`, async () => {
    if (!p.alive()) throw new Error(`${name} exited: ${p.output()}`);
    return existsSync(heartbeat);
  }, START_LIMIT_MS, 100);
  return p;
}
