import type { Logger, Runtime } from '@shop/core';

/**
 * The recurring jobs, as BullMQ job schedulers (upserted at every start, so changing an
 * interval in the configuration takes effect on the next start, and N workers never
 * create N schedules).
 */
export async function scheduleRecurringJobs({ queues, config }: Runtime): Promise<void> {
  await queues['chain-index'].upsertJobScheduler('chain-index', { every: config.indexerIntervalMs }, { name: 'chain-index', data: {} });
  await queues['payment-sweep'].upsertJobScheduler('payment-sweep', { every: config.maintenanceIntervalMs }, { name: 'payment-sweep', data: {} });
  await queues['daily-credit'].upsertJobScheduler('daily-credit', { pattern: config.dailyCreditCron, tz: config.dailyCreditTz }, { name: 'daily-credit', data: {} });
  await queues['order-expire'].upsertJobScheduler('order-expire', { every: config.maintenanceIntervalMs }, { name: 'order-expire', data: {} });
  await queues['webhook-dispatch'].upsertJobScheduler('webhook-dispatch', { every: config.webhookDispatchMs }, { name: 'webhook-dispatch', data: {} });
  await queues['deposit-sweep'].upsertJobScheduler('deposit-sweep', { every: config.sweepIntervalMs }, { name: 'deposit-sweep', data: {} });
  await queues.retention.upsertJobScheduler('retention', { every: config.retentionIntervalMs }, { name: 'retention', data: {} });
  await queues.reconcile.upsertJobScheduler('reconcile', { every: config.reconcileIntervalMs }, { name: 'reconcile', data: { scope: 'changes' } });
  await queues.reconcile.upsertJobScheduler('reconcile-audit', { pattern: config.reconcileAuditCron, tz: 'UTC' }, { name: 'reconcile', data: { scope: 'audit' } });
}

/**
 * Schedules now and again after every Redis reconnection: a Redis that restarted
 * without its data has lost the schedulers (and the queued jobs, which the sweeper
 * re-creates from Postgres on its next run).
 */
export async function keepSchedules(runtime: Runtime, logger: Logger): Promise<void> {
  // If the connection is not ready yet, its first 'ready' is the initial connect.
  let first = runtime.redis.status !== 'ready';
  runtime.redis.on('ready', () => {
    if (first) {
      first = false;
      return;
    }
    scheduleRecurringJobs(runtime).then(
      () => logger.info({ msg: 'redis reconnected: schedules restored' }),
      (err: unknown) => logger.error({ msg: 'could not restore schedules after a redis reconnection', err }),
    );
  });
  await scheduleRecurringJobs(runtime);
}
