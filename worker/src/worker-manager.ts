import { DelayedError, Worker, type Job } from 'bullmq';
import { queueDefinitions, type JobPayload, type Logger, type QueueName, type Runtime } from '@shop/core';

export type ProcessorContext = { runtime: Runtime; logger: Logger; token?: string };
export type Processor<N extends QueueName> = (job: Job<JobPayload<N>>, ctx: ProcessorContext) => Promise<unknown>;
export type ProcessorMap = { [N in QueueName]?: { process: Processor<N>; concurrency?: number } };

/**
 * Starts one BullMQ Worker per registered processor. Each job's payload is validated
 * against the registry, and each run gets a child logger with the job's identity.
 * Every Worker has an 'error' listener (an unhandled one would crash the process).
 */
export function startWorkers(runtime: Runtime, processors: ProcessorMap): { workers: Worker[]; close(): Promise<void> } {
  const { logger, config } = runtime;
  const workers: Worker[] = [];
  for (const name of Object.keys(processors) as QueueName[]) {
    const entry = processors[name] as { process: Processor<QueueName>; concurrency?: number } | undefined;
    if (!entry) continue;
    const worker = new Worker(
      name,
      async (job: Job, token?: string) => {
        const log = logger.child({ queue: name, job_id: job.id, attempt: job.attemptsMade + 1 });
        const data = queueDefinitions[name].payload.parse(job.data);
        const started = Date.now();
        try {
          const result = await entry.process(Object.assign(job, { data }) as Job<JobPayload<QueueName>>, { runtime, logger: log, token });
          log.debug({ msg: 'job done', duration_ms: Date.now() - started });
          return result;
        } catch (err) {
          // Waiting (for confirmations, say) is not a failure.
          if (!(err instanceof DelayedError)) log.warn({ msg: 'job failed', err, duration_ms: Date.now() - started });
          throw err;
        }
      },
      {
        connection: runtime.redis.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true }),
        prefix: config.queuePrefix,
        concurrency: entry.concurrency ?? 1,
        lockDuration: config.jobLockMs,
        stalledInterval: config.jobLockMs,
        autorun: true,
      },
    );
    worker.on('error', (err) => logger.error({ msg: 'worker error', queue: name, err }));
    worker.on('failed', (job, err) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) {
        logger.error({ msg: 'job failed for good', queue: name, job_id: job.id, err: err.message });
      }
    });
    workers.push(worker);
  }
  return {
    workers,
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all(workers.map((w) => w.disconnect().catch(() => {})));
    },
  };
}
