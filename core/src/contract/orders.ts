import { z } from 'zod';
import { intInRange, txHash, usdAmount } from './common.ts';
import { assetJson } from './json-parts.ts';

export const createOrderBody = z.object({
  orderedItems: z
    .array(z.object({ _id: z.string().uuid('is not a valid product id'), qty: intInRange(1, 1000) }).passthrough())
    .max(50, 'has too many lines (50 at most)'),
  itemsPrice: usdAmount,
  totalPrice: usdAmount,
});

/** `asset`: what the wallet sent (ETH unless said): a token's transfer goes to the order's deposit address, found there by the indexer. */
export const reportPaymentBody = z.object({ txHash, asset: assetJson.optional() });

/** A buyer's claim of a transfer that reached the shop without its order's tag (PUT /api/orders/:id/claim). */
export const claimPaymentBody = z.object({
  txHash,
  signature: z.string().trim().regex(/^0x[0-9a-fA-F]{130,}$/, 'must be a signature (0x followed by hex)').max(20_000, 'is too long'),
});

/** Every state an order can be in. */
export const ORDER_STATUSES = ['PENDING_PAYMENT', 'VERIFYING', 'UNDERPAID', 'LATE', 'PAID', 'EXPIRED', 'DELETED', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** The states the order lists filter by (`?status=PAID,LATE`): a deleted order is listed nowhere. */
export const LISTED_ORDER_STATUSES = ORDER_STATUSES.filter((s): s is Exclude<OrderStatus, 'DELETED'> => s !== 'DELETED');

export const PAYMENT_STATUSES = ['PENDING', 'COUNTED', 'REJECTED', 'UNRESOLVED', 'LATE', 'REFUNDED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

