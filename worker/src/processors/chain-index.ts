import { indexAndQueue } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/** While halted, the reason is logged again at most this often (the tick runs every second). */
const HALT_LOG_EVERY_MS = 60_000;
let lastHaltLog = 0;

/** A tick of the indexer: scan new blocks, queue verification of what it found. */
export const chainIndex: Processor<'chain-index'> = async (_job, { runtime, logger }) => {
  const result = await indexAndQueue({ ...runtime, logger }, { startBlock: runtime.config.indexerStartBlock });
  if (result.halted) {
    if (Date.now() - lastHaltLog > HALT_LOG_EVERY_MS) {
      lastHaltLog = Date.now();
      logger.error({ msg: 'indexer halted: run npm run indexer:resume once the cause is fixed (README, Operating it)', reason: result.halted });
    }
    return { halted: result.halted };
  }
  if (result.behind) logger.warn({ msg: 'the node is behind the indexer checkpoint; waiting for it', blocks_behind: result.behind });
  if (result.transfers.length || result.reorgDepth) {
    logger.info({ msg: 'indexed', from: result.from.toString(), to: result.to.toString(), transfers: result.transfers.length, reorg_depth: result.reorgDepth });
  }
  return { to: result.to.toString(), transfers: result.transfers.length };
};
