import type { Logger } from '@shop/core';

/**
 * Runs the steps in order on SIGTERM/SIGINT, each awaited; exits 1 if the whole
 * sequence takes longer than `timeoutMs` (a stuck job must not keep the process alive).
 */
export function installShutdown(logger: Logger, steps: { name: string; run: () => Promise<void> }[], timeoutMs = 15_000): (signal: string) => Promise<void> {
  let started = false;
  const shutdown = async (signal: string) => {
    if (started) return;
    started = true;
    logger.info({ msg: 'shutting down', signal });
    const hard = setTimeout(() => {
      logger.error({ msg: 'shutdown timed out; exiting', timeout_ms: timeoutMs });
      process.exit(1);
    }, timeoutMs);
    hard.unref();
    let code = 0;
    for (const step of steps) {
      try {
        await step.run();
        logger.info({ msg: 'stopped', step: step.name });
      } catch (err) {
        code = 1;
        logger.error({ msg: 'shutdown step failed', step: step.name, err });
      }
    }
    clearTimeout(hard);
    process.exit(code);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  return shutdown;
}
