import { pruneRetained } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * Deletes what the shop keeps no longer (old webhooks, ended sessions, old reconciliation
 * reports, indexed blocks no reorg needs), in small batches; every RETENTION_INTERVAL_MS.
 */
export const retention: Processor<'retention'> = async (_job, { runtime, logger }) => {
  const result = await pruneRetained(runtime);
  if (Object.values(result).some((n) => n > 0)) {
    logger.info({
      msg: 'retention: old rows deleted',
      webhook_deliveries: result.webhookDeliveries,
      webhook_events: result.webhookEvents,
      sessions: result.sessions,
      reconciliation_runs: result.reconciliationRuns,
      indexed_blocks: result.indexedBlocks,
    });
  }
  return result;
};
