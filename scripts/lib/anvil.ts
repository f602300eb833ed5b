import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Starts a local anvil node on chain id 1 (so the code paths that insist on "mainnet"
 * run unchanged in dev and tests) and stops it again. Used by dev scripts and by tests,
 * each of which gets its own node on a free port.
 */

export type AnvilOptions = {
  /** 0 or undefined: a free port is picked. */
  port?: number;
  /** Seconds between blocks (interval mining). Undefined: automine, a block per transaction. */
  blockTime?: number;
  /** Interface to listen on; 127.0.0.1 unless told. */
  host?: string;
  /** How long to wait for the node to answer eth_chainId. */
  startTimeoutMs?: number;
  /**
   * Keep the chain in this file: loaded at start, written every few seconds and when
   * the node stops (SIGTERM), so a restarted node continues the same chain.
   */
  statePath?: string;
  /**
   * The genesis block's timestamp (seconds). Unset: the time the node starts, so two
   * nodes started in the same second share a genesis block; a test that needs another
   * chain for certain sets it.
   */
  genesisTimestamp?: number;
};

export type AnvilInstance = {
  rpcUrl: string;
  port: number;
  stop(): Promise<void>;
};

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DEFAULT_START_TIMEOUT_MS = 15_000;
/** How often a node that keeps its chain writes it (it also writes when it stops). */
const STATE_INTERVAL_SECONDS = 5;
const PORT_ATTEMPTS = 3;

export async function startAnvil(opts: AnvilOptions = {}): Promise<AnvilInstance> {
  const fixedPort = opts.port !== undefined && opts.port !== 0;
  let lastError: unknown;
  // A free port found by probing can be taken by someone else before anvil binds it;
  // retry with a fresh one in that case. A port the caller chose is tried once.
  for (let attempt = 0; attempt < (fixedPort ? 1 : PORT_ATTEMPTS); attempt++) {
    const host = opts.host ?? '127.0.0.1';
    const port = fixedPort ? (opts.port as number) : await findFreePort(host);
    // anvil binds with SO_REUSEPORT, so a second node on a taken port starts "fine" and
    // the two then share the port's requests. Refuse a taken port up front instead.
    if (fixedPort && !(await isPortFree(host, port))) {
      throw new Error(`port ${port} on ${host} is already in use${(await isRpcUp(rpcUrlFor(host, port))) ? ' by an Ethereum node' : ''}`);
    }
    try {
      return await startOnPort(port, opts);
    } catch (err) {
      lastError = err;
      if (!(err instanceof AnvilExitedError)) throw err;
    }
  }
  throw lastError;
}

/** True when something at `url` answers a JSON-RPC eth_chainId within the timeout. */
export async function isRpcUp(url: string, timeoutMs = 1_000): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return false;
    const body: unknown = await res.json();
    return (
      typeof body === 'object' &&
      body !== null &&
      'result' in body &&
      typeof body.result === 'string' &&
      body.result.startsWith('0x')
    );
  } catch {
    return false;
  }
}

/**
 * The native binary when the platform package is installed: spawning it directly means
 * one process to kill. The node_modules/.bin/anvil launcher is a Node wrapper that
 * spawns the same binary and would leave it orphaned if the wrapper were SIGKILLed.
 */
export function anvilBinaryPath(): string {
  const platformBinary = join(
    REPO_ROOT,
    'node_modules/@foundry-rs',
    `anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`,
    'bin',
    process.platform === 'win32' ? 'anvil.exe' : 'anvil',
  );
  if (existsSync(platformBinary)) return platformBinary;
  const launcher = join(REPO_ROOT, 'node_modules/.bin', process.platform === 'win32' ? 'anvil.cmd' : 'anvil');
  if (existsSync(launcher)) return launcher;
  throw new Error(
    `anvil binary not found under ${join(REPO_ROOT, 'node_modules')}; run \`npm ci\` (package @foundry-rs/anvil)`,
  );
}

class AnvilExitedError extends Error {}

async function startOnPort(port: number, opts: AnvilOptions): Promise<AnvilInstance> {
  const host = opts.host ?? '127.0.0.1';
  const args = ['--chain-id', '1', '--host', host, '--port', String(port), '--silent'];
  if (opts.blockTime !== undefined) args.push('--block-time', String(opts.blockTime));
  if (opts.genesisTimestamp !== undefined) args.push('--timestamp', String(opts.genesisTimestamp));
  if (opts.statePath) args.push('--state', opts.statePath, '--state-interval', String(STATE_INTERVAL_SECONDS));

  const child = spawn(anvilBinaryPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collectOutput(child);
  const exited = new Promise<number | string | null>((res) => {
    child.once('exit', (code, signal) => res(signal ?? code));
  });
  let spawnError: Error | undefined;
  child.once('error', (err) => {
    spawnError = err;
  });

  // A node that keeps its chain is asked to stop (SIGTERM), so it writes its state;
  // SIGKILL would lose the blocks since its last periodic write.
  const killNow = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(opts.statePath ? 'SIGTERM' : 'SIGKILL');
  };
  const onSignal = (signal: NodeJS.Signals) => {
    killNow();
    // Keep the default "die on this signal" behaviour unless someone else handles it.
    process.off(signal, onSignal);
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.once('exit', killNow);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const detach = () => {
    process.off('exit', killNow);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };

  const rpcUrl = rpcUrlFor(host, port);

  const stop = async (): Promise<void> => {
    detach();
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.statePath ? 15_000 : 3_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (Date.now() < deadline) {
    if (spawnError) {
      detach();
      throw new Error(`could not spawn anvil: ${spawnError.message}`, { cause: spawnError });
    }
    if (done) {
      detach();
      throw new AnvilExitedError(`anvil exited before answering on ${rpcUrl}: ${output().trim() || '(no output)'}`);
    }
    if (await isRpcUp(rpcUrl, 500)) return { rpcUrl, port, stop };
    await sleep(100);
  }
  await stop();
  throw new Error(
    `anvil did not answer eth_chainId on ${rpcUrl} within ${opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS} ms: ${output().trim() || '(no output)'}`,
  );
}

function collectOutput(child: ChildProcess): () => string {
  let text = '';
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => text;
}

function rpcUrlFor(host: string, port: number): string {
  const connectHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${connectHost.includes(':') ? `[${connectHost}]` : connectHost}:${port}`;
}

function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((res) => {
    const server = createServer();
    server.unref();
    server.once('error', () => res(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => res(true)));
  });
}

function findFreePort(host: string): Promise<number> {
  return new Promise((res, rej) => {
    const server = createServer();
    server.unref();
    server.once('error', rej);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? res(port) : rej(new Error('could not find a free port'))));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((res) => setTimeout(res, ms));
}
