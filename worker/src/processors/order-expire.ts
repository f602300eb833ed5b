import { expireOrders, pruneSessions } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * Expires unpaid orders past their payment window (releasing stock), frees old tags,
 * and forgets sessions that ended more than a day ago.
 */
export const orderExpire: Processor<'order-expire'> = async (_job, { runtime, logger }) => {
  const result = await expireOrders(runtime.db, runtime.config);
  const sessionsPruned = await pruneSessions(runtime.db);
  if (result.expired || result.tagsReleased || sessionsPruned) logger.info({ msg: 'orders expired', ...result, sessions_pruned: sessionsPruned });
  return { ...result, sessionsPruned };
};
