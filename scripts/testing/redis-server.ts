import { spawn, type ChildProcess } from 'node:child_process';
import { redisAnswers } from '../lib/services.ts';
import { freePort } from './smtp.ts';

/**
 * A Redis server of a test's own (no persistence, like a restarted cache that lost
 * everything), which the test can stop and start again on the same port.
 */
export async function startRedisServer(port?: number): Promise<{ url: string; port: number; stop(): Promise<void>; start(): Promise<void> }> {
  const chosen = port ?? (await freePort());
  const url = `redis://127.0.0.1:${chosen}`;
  let proc: ChildProcess | undefined;
  async function start() {
    proc = spawn('redis-server', ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (await redisAnswers(url, 500)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not start on ${chosen}`);
  }
  async function stop() {
    const p = proc;
    if (!p || p.exitCode !== null) return;
    p.kill('SIGKILL');
    await new Promise((r) => p.once('exit', r));
  }
  await start();
  return { url, port: chosen, start, stop };
}
