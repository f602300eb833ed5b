import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { jobs } from '@shop/core';
import { startWorkers } from './worker-manager.ts';
import { createTestEnv, type TestEnv } from '../../scripts/testing/test-env.ts';
import { REPO_ROOT } from '../../scripts/lib/paths.ts';
import { waitFor, WAIT_LIMIT_MS } from '../../scripts/testing/chain.ts';
import { START_LIMIT_MS } from '../../scripts/testing/processes.ts';

describe('worker skeleton', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('runs a registered processor with the validated payload and retries a failure', async () => {
    const seen: unknown[] = [];
    let calls = 0;
    const workers = startWorkers(env.runtime, {
      email: {
        process: async (job) => {
          calls++;
          if (calls === 1) throw new Error('smtp down');
          seen.push(job.data);
        },
      },
    });
    try {
      const payload = { kind: 'cashout-notice' as const, cashoutId: '7f1b7c3e-9a55-4d57-8f6e-3c2f4b1a0d11' };
      await jobs.sendCashoutNotice(env.runtime.queues, payload.cashoutId, { backoff: { type: 'fixed', delay: 50 } });
      await waitFor('the retried job to run', async () => seen.length > 0, WAIT_LIMIT_MS, 50);
      expect(calls).toBe(2);
      expect(seen).toEqual([payload]);
    } finally {
      await workers.close();
    }
  });

  it('refuses to enqueue a payload the registry does not allow', async () => {
    await expect(jobs.sendReceipt(env.runtime.queues, 'not-a-uuid')).rejects.toThrow();
    expect(await env.runtime.queues.email.getJobCounts('waiting')).toEqual({ waiting: 0 });
  });

  it('the worker process shuts down cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'worker/src/main.ts')], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATABASE_URL: env.config.databaseUrl,
        REDIS_URL: env.config.redisUrl,
        QUEUE_PREFIX: env.config.queuePrefix,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    // Starting tsx and importing the worker takes seconds, and minutes on a busy machine.
    await waitFor('the worker to start', async () => output.includes('worker started') || child.exitCode !== null, START_LIMIT_MS, 50);
    expect(output).toContain('worker started');
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(output).toContain('"step":"workers"');
    expect(output).toContain('"step":"connections"');
  }, START_LIMIT_MS + 60_000);
});
