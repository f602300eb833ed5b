import { writeFile } from 'node:fs/promises';
import { createRuntime, getConfig } from '@shop/core';
import { processors } from './processors/index.ts';
import { installShutdown } from './shutdown.ts';
import { startWorkers } from './worker-manager.ts';
import { keepSchedules } from './schedules.ts';
import { closeMailer } from './processors/email.ts';
import { startBlockWatcher } from './block-watcher.ts';

const runtime = createRuntime(getConfig(), 'worker');
const { logger } = runtime;
process.on('unhandledRejection', (err) => logger.error({ msg: 'unhandled rejection', err }));

// The deposit factory's code, checked now and on its schedule (the sweeper checks again before each run); the verdict is logged.
void runtime.depositFactory.start();
const workers = startWorkers(runtime, processors);
await keepSchedules(runtime, logger);
const watcher = startBlockWatcher(runtime, logger);
logger.info({ msg: 'worker started', queues: workers.workers.map((w) => w.name) });

// A heartbeat for the container's HEALTHCHECK (scripts/healthcheck.mjs): written while
// the worker can reach Redis, where its jobs are.
const beat = () => {
  if (runtime.redis.status === 'ready') {
    writeFile(runtime.config.workerHeartbeatFile, new Date().toISOString()).catch((err: unknown) =>
      logger.warn({ msg: 'could not write the heartbeat file', err }),
    );
  }
};
beat();
setInterval(beat, 10_000).unref();

// Order: stop taking jobs (and let running ones finish), then Redis and Prisma.
installShutdown(logger, [
  { name: 'block watcher', run: () => watcher.close() },
  { name: 'workers', run: () => workers.close() },
  { name: 'mailer', run: async () => closeMailer() },
  { name: 'connections', run: () => runtime.close() },
]);
