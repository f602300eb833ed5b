import type { Runtime } from '@shop/core';

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
}
