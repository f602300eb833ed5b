import type { Queue } from 'bullmq';
import type { Db } from '@shop/core';
import { waitFor, WAIT_LIMIT_MS } from './chain.ts';

/**
 * Positive signals to wait for instead of a sleep: a test that asserts "nothing more
 * happened" first waits for the work that could have made it happen to be over.
 */

/** Until a session of the test's database waits for a lock (a statement the test means to block is blocked). */
export async function waitForLockWait(db: Db, what: string, timeoutMs = WAIT_LIMIT_MS): Promise<void> {
  await waitFor(what, async () => {
    const [row] = await db.$queryRaw<[{ n: bigint }]>`
      SELECT count(*) AS n FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event_type" = 'Lock'`;
    return row.n > 0n;
  }, timeoutMs, 20);
}

/** Until `queue` holds no job waiting, delayed, prioritized or running: every job handed to it so far has finished. */
export async function waitForQueueIdle(queue: Queue, what: string, timeoutMs = WAIT_LIMIT_MS): Promise<void> {
  await waitFor(what, async () => {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    return Object.values(counts).every((n) => n === 0);
  }, timeoutMs);
}

/** Until the job `id` of `queue` has completed (a job that failed for good fails the wait at once). */
export async function waitForJobDone(queue: Queue, id: string, timeoutMs = WAIT_LIMIT_MS): Promise<void> {
  await waitFor(`job ${id} of ${queue.name} to complete`, async () => {
    const job = await queue.getJob(id);
    const state = job ? await job.getState() : 'missing';
    if (state === 'failed') throw new Error(`job ${id} of ${queue.name} failed: ${job?.failedReason}`);
    return state === 'completed';
  }, timeoutMs);
}
