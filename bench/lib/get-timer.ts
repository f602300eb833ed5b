import { forkTs } from './child.ts';
import type { Scope } from './scope.ts';

/** Sequential GETs timed by a lean process of their own (bench/servers/get-timer.ts says why). */
export type GetTimer = {
  /** `samples` GETs of `url` one after another: each one's time (ms, sending to the body's end) and the largest body. */
  time(url: string, headers: Record<string, string>, samples: number): Promise<{ times: number[]; bytes: number }>;
};

export async function startGetTimer(scope: Scope, name = 'get timer'): Promise<GetTimer> {
  const child = forkTs('bench/servers/get-timer.ts', {}, name);
  scope.defer(name, child.stop);
  await child.next('ready', 60_000);
  // One request at a time: the child answers them in order.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    time(url, headers, samples) {
      const run = queue.then(async () => {
        child.send({ type: 'time', url, headers, samples });
        const got = await child.next<{ type: string; times: number[]; bytes: number; status: number; error?: string }>('timed', 600_000);
        if (got.error) throw new Error(`GET ${url}: ${got.error}`);
        if (got.status !== 200) throw new Error(`GET ${url}: HTTP ${got.status}`);
        return { times: got.times, bytes: got.bytes };
      });
      queue = run.catch(() => {});
      return run;
    },
  };
}
