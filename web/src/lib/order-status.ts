import type { OrderStatus } from '@shop/core/contract';
import { t, type MessageKey } from '@/i18n/i18n';

const ORDER_STATUS_KEYS: Record<OrderStatus, MessageKey> = {
  PENDING_PAYMENT: 'orderStatus.pendingPayment',
  VERIFYING: 'orderStatus.verifying',
  UNDERPAID: 'orderStatus.underpaid',
  LATE: 'orderStatus.late',
  PAID: 'orderStatus.paid',
  EXPIRED: 'orderStatus.expired',
  DELETED: 'orderStatus.deleted',
  CANCELLED: 'orderStatus.cancelled',
};

/** Where an order stands, in the buyer's words and the active language (the pay page and the profile). */
export function orderStatusLabel(status: OrderStatus): string {
  return t(ORDER_STATUS_KEYS[status]);
}

/**
 * The same words as a record: each entry is read when it is drawn (a getter), so it is in
 * the active language even where the record is kept at module level.
 */
export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatus, string>> = Object.defineProperties(
  {} as Record<OrderStatus, string>,
  Object.fromEntries(
    (Object.keys(ORDER_STATUS_KEYS) as OrderStatus[]).map((status) => [status, { enumerable: true, get: () => orderStatusLabel(status) }]),
  ),
);

/** Orders a buyer can still pay, or whose payment is being looked at. */
export const UNPAID_STATUSES: readonly OrderStatus[] = ['PENDING_PAYMENT', 'VERIFYING', 'UNDERPAID', 'LATE'];
