import { enqueue, indexBlocks } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/** A tick of the indexer: scan new blocks, enqueue verification of what it found. */
export const chainIndex: Processor<'chain-index'> = async (_job, { runtime, logger }) => {
  const result = await indexBlocks({ ...runtime, logger }, { startBlock: runtime.config.indexerStartBlock });
  for (const t of result.transfers) {
    await enqueue(runtime.queues, 'payment-verify', t, { jobId: `verify-${t.txHash}` });
  }
  for (const t of result.recheck) {
    // A fresh id: the first verification of this hash may have completed already.
    await enqueue(runtime.queues, 'payment-verify', t, { jobId: `recheck-${t.txHash}-${Date.now()}` });
  }
  if (result.transfers.length || result.reorgDepth) {
    logger.info({ msg: 'indexed', from: result.from.toString(), to: result.to.toString(), transfers: result.transfers.length, reorg_depth: result.reorgDepth });
  }
  return { to: result.to.toString(), transfers: result.transfers.length };
};
