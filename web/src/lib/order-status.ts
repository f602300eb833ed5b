import type { OrderStatus } from '@shop/core/contract';

/** Where an order stands, in the buyer's words (the pay page and the profile). */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  PENDING_PAYMENT: 'Awaiting payment',
  VERIFYING: 'Verifying payment',
  UNDERPAID: 'Underpaid',
  LATE: 'Late payment under review',
  PAID: 'Paid',
  EXPIRED: 'Expired',
  DELETED: 'Deleted',
  CANCELLED: 'Cancelled',
};

/** Orders a buyer can still pay, or whose payment is being looked at. */
export const UNPAID_STATUSES: readonly OrderStatus[] = ['PENDING_PAYMENT', 'VERIFYING', 'UNDERPAID', 'LATE'];
