import type { AdminPaymentJson } from './cashouts.ts';
import type { OrderItemJson, OrderStatus } from './orders.ts';
import type { OverpaymentJson, RefundJson } from './payouts.ts';
import type { WebhookDeliveryStatus, WebhookEventType } from './webhooks.ts';

/** One of an order's quotes: the price its ETH amount was locked at. */
export type AdminOrderQuoteJson = {
  _id: string;
  ethUsd: string;
  usdAmount: number;
  amountWei: string;
  /** 6 decimals. */
  amountEth: string;
  createdAt: string;
  expiresAt: string;
};

/**
 * A transfer on the admin order page: the Payments page's row (so its actions apply) with
 * how far it is confirmed, the block it is in, and how it relates to this order.
 */
export type AdminOrderPaymentJson = AdminPaymentJson & {
  confirmations: number;
  requiredConfirmations: number;
  blockHash: string | null;
  /** The address that sent all of its value (refunds go there by default), when one did. */
  payer: string | null;
  /** Reported by the buyer for this order but attributed to another one (or to none yet). */
  reportedOnly: boolean;
};

export type AdminOrderDeliveryJson = {
  _id: string;
  type: WebhookEventType;
  subject: string;
  endpoint: { _id: string; url: string };
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
};

/** A capped list: the newest `items`, and how many there are in all. */
export type Capped<T> = { items: T[]; total: number };

/** GET /api/admin/orders/:id: one order with everything an admin acts on. */
export type AdminOrderDetailJson = {
  _id: string;
  /** ORD-XXXXXXXX (orderReference). */
  reference: string;
  status: OrderStatus;
  isPaid: boolean;
  createdAt: string;
  paidAt: string | null;
  expiresAt: string | null;
  paymentDeadline: string | null;
  deletedAt: string | null;
  cancelledAt: string | null;
  itemsPrice: number;
  totalPrice: number;
  paidUsd: number;
  /** USD received beyond the total, and the part of it already refunded or credited. */
  overpaidUsd: number;
  overpaidSettledUsd: number;
  items: (OrderItemJson & { dailyCredit: number; durationDays: number })[];
  buyer: { _id: string; name: string; email: string; deleted: boolean };
  quotes: Capped<AdminOrderQuoteJson>;
  payments: Capped<AdminOrderPaymentJson>;
  /** What is left of the overpayment to refund or credit (null when nothing is). */
  overpayment: OverpaymentJson | null;
  refunds: Capped<RefundJson>;
  deliveries: Capped<AdminOrderDeliveryJson>;
  /** What an admin may do now, decided on the server from the order's state. */
  actions: {
    canDelete: boolean;
    deleteBlockedReason: string | null;
    canRefundOverpayment: boolean;
  };
};
