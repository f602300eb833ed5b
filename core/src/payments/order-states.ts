import { toCents } from '../contract/money.ts';
import type { OrderStatus, Prisma } from '../infra/db.ts';

/**
 * The order's states as the payment rules group them, and what is still due: the sets
 * placement, quotes, settlement and expiry all name.
 */
/** Orders a buyer can still pay: they get quotes and count toward the open-orders cap. */
export const PAYABLE_STATUSES = ['PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING'] as const satisfies readonly OrderStatus[];
/** Orders whose payment window can run out: their stock is released then (LATE ones keep their status for an admin). */
export const EXPIRABLE_STATUSES = [...PAYABLE_STATUSES, 'LATE'] as const satisfies readonly OrderStatus[];
/**
 * Orders still open to an admin's assignment of a transfer: not paid, and not ended by a
 * person (cancelled, deleted). An expired one can still be paid this way (its stock
 * reserved again, if there is any); a paid one would only take an overpayment.
 */
export const OPEN_STATUSES = [...EXPIRABLE_STATUSES, 'EXPIRED'] as const satisfies readonly OrderStatus[];
/** Orders done with paying: their tag is freed once no late transfer can still arrive for them. */
export const SETTLED_STATUSES = ['PAID', 'EXPIRED', 'LATE', 'DELETED', 'CANCELLED'] as const satisfies readonly OrderStatus[];

export const isPayable = (status: OrderStatus) => (PAYABLE_STATUSES as readonly OrderStatus[]).includes(status);

/** USD still due on an order, in cents (never negative). */
export function dueCents(order: { totalPrice: Prisma.Decimal; paidUsd: Prisma.Decimal }): bigint {
  const due = toCents(order.totalPrice.toFixed(2)) - toCents(order.paidUsd.toFixed(2));
  return due > 0n ? due : 0n;
}

