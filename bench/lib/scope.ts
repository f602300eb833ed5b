import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { withTimeout } from '@shop/core';

/**
 * Resources a benchmark holds (databases, anvils, child processes), released in reverse
 * order on success, on failure, and on Ctrl-C. Every release is bounded in time, so a
 * stuck one never keeps the run alive.
 */
export type Scope = {
  defer(name: string, release: () => Promise<unknown> | unknown): void;
  close(): Promise<void>;
};

const RELEASE_TIMEOUT_MS = 15_000;
const openScopes = new Set<Scope>();

export function createScope(): Scope {
  const stack: { name: string; release: () => Promise<unknown> | unknown }[] = [];
  let closing: Promise<void> | undefined;
  const scope: Scope = {
    defer(name, release) {
      stack.push({ name, release });
    },
    close() {
      closing ??= (async () => {
        while (stack.length > 0) {
          const { name, release } = stack.pop() as (typeof stack)[number];
          try {
            await withTimeout(Promise.resolve().then(release), RELEASE_TIMEOUT_MS);
          } catch (err) {
            console.error(`[bench] could not release ${name}: ${err instanceof Error ? err.message : String(err)}`);
          }
        }
        openScopes.delete(scope);
      })();
      return closing;
    },
  };
  openScopes.add(scope);
  return scope;
}

/** A new folder under the system's temp folder, removed with the scope. */
export async function tempDir(scope: Scope, name: string, prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  scope.defer(name, () => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** On SIGINT/SIGTERM: release everything still held, then exit. */
export function installSignalCleanup(): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.error(`[bench] ${signal}: releasing resources`);
    void Promise.allSettled([...openScopes].map((s) => s.close())).finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
