import { expireOrders } from '@shop/core';
import type { Processor } from '../worker-manager.ts';

/**
 * Expires unpaid orders past their payment window (releasing stock) and frees old tags.
 * (Ended sessions are deleted by the retention job.)
 */
export const orderExpire: Processor<'order-expire'> = async (_job, { runtime, logger }) => {
  const result = await expireOrders(runtime.db, runtime.config);
  if (result.expired || result.tagsReleased) logger.info({ msg: 'orders expired', ...result });
  return result;
};
