import { fork, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/paths.ts';

/**
 * A TypeScript entry point run in its own Node process (through tsx), talking to this
 * one over IPC. The children exit by themselves when this process goes away (their IPC
 * channel closes), and any still alive when it exits are killed.
 */
export type ChildMessage = { type: string } & Record<string, unknown>;

export type TsChild = {
  name: string;
  pid: number | undefined;
  send(message: ChildMessage): void;
  /** Takes the oldest unread message of this type (already received or still to come). */
  next<T extends ChildMessage>(type: string, timeoutMs: number): Promise<T>;
  /** The last few kilobytes the child printed (`keepOutput` characters). */
  output(): string;
  /** null while it runs; then its exit code, or the signal that ended it. */
  exitCode(): string | null;
  stop(): Promise<void>;
};

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

const OUTPUT_KEEP = 8_000;
const STOP_GRACE_MS = 5_000;

export type ForkOptions = {
  /** How many characters of output to keep (the tail). */
  keepOutput?: number;
  /** Working directory (default: the repository); `--import tsx` resolves from here. */
  cwd?: string;
  /** Start from an empty environment instead of this process's (PATH and HOME kept). */
  cleanEnv?: boolean;
};

export function forkTs(entry: string, env: Record<string, string>, name = path.basename(entry, '.ts'), opts: ForkOptions = {}): TsChild {
  const cwd = opts.cwd ?? REPO_ROOT;
  const keepOutput = opts.keepOutput ?? OUTPUT_KEEP;
  const base = opts.cleanEnv ? { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } : process.env;
  const child = fork(path.resolve(cwd, entry), [], {
    cwd,
    // BENCH_CPU_PROF_DIR: every child writes a V8 CPU profile there when it exits (open it in Chrome's DevTools).
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [])],
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  live.add(child);
  let text = '';
  // BENCH_CHILD_LOG_DIR: every child's whole output also goes to <dir>/<name>.log.
  const logFile = process.env.BENCH_CHILD_LOG_DIR ? path.join(process.env.BENCH_CHILD_LOG_DIR, `${name.replace(/[^\w.-]+/g, '-')}.log`) : null;
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-keepOutput);
    if (logFile) appendFileSync(logFile, chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const received: ChildMessage[] = [];
  const waiters = new Set<() => void>();
  child.on('message', (msg) => {
    if (typeof msg === 'object' && msg !== null && typeof (msg as ChildMessage).type === 'string') received.push(msg as ChildMessage);
    for (const wake of waiters) wake();
  });
  let exitedWith: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedWith = signal ?? String(code);
      live.delete(child);
      for (const wake of waiters) wake();
      resolve();
    });
  });
  child.once('error', (err) => {
    exitedWith ??= `error: ${err.message}`;
    for (const wake of waiters) wake();
  });

  return {
    name,
    pid: child.pid,
    send(message) {
      child.send(message);
    },
    next<T extends ChildMessage>(type: string, timeoutMs: number): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = () => {
          const index = received.findIndex((m) => m.type === type);
          if (index >= 0) {
            const [found] = received.splice(index, 1);
            return done(() => resolve(found as T));
          }
          if (exitedWith !== undefined) {
            return done(() => reject(new Error(`${name} exited (${exitedWith}) before sending '${type}':\n${text.trim() || '(no output)'}`)));
          }
        };
        const timer = setTimeout(() => done(() => reject(new Error(`${name} sent no '${type}' within ${timeoutMs} ms:\n${text.trim() || '(no output)'}`))), timeoutMs);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
    output: () => text,
    exitCode: () => exitedWith ?? null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
