import { z } from 'zod';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhooks.ts';
import { ASSETS, assetJson, isoTime } from './json-parts.ts';

export const webhookEndpointJson = z.object({
  _id: z.string(),
  url: z.string(),
  description: z.string(),
  /** The signing secret (whsec_...: the key receivers verify signatures with): only in the answer that created the endpoint; otherwise null (POST .../:id/secret reveals it, with a step-up). */
  secret: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  createdAt: isoTime,
  /**
   * Deliveries by status: pending and failed ones (open work: an admin can redeliver a
   * failed one), and delivered ones among those kept, the last WEBHOOK_RETENTION_DAYS.
   */
  counts: z.object({ pending: z.number().int(), delivered: z.number().int(), failed: z.number().int() }),
});
export type WebhookEndpointJson = z.infer<typeof webhookEndpointJson>;
/** What every view of a delivery shows: which event, where it stands, its last answer. */
export const webhookDeliveryStateJson = z.object({
  _id: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  subject: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: isoTime,
  deliveredAt: isoTime.nullable(),
});

/** A delivery in an endpoint's list, with its event id and its attempts. */
export const webhookDeliveryJson = webhookDeliveryStateJson.extend({
  eventId: z.string(),
  /** The most recent attempts first. */
  log: z.array(z.object({ at: isoTime, statusCode: z.number().int().nullable(), error: z.string().nullable(), durationMs: z.number() })),
});
export type WebhookDeliveryJson = z.infer<typeof webhookDeliveryJson>;

/** POST /api/admin/webhooks/:id/secret: the endpoint's signing secret. */
export const webhookSecretJson = z.object({ secret: z.string() });

// What the shop posts to a webhook endpoint (core/src/events/webhooks.ts writes it): the JSON
// body `{type, timestamp, data}`, signed as Standard Webhooks says (the headers below).

/** The order fields every order event carries (amounts are exact 2-decimal strings). */
export const webhookOrderData = z.object({
  id: z.string(),
  userId: z.string(),
  status: z.string(),
  totalPrice: z.string(),
  paidUsd: z.string(),
  overpaidUsd: z.string(),
  paidAt: isoTime.nullable(),
});
export const webhookCashoutData = z.object({
  id: z.string(),
  userId: z.string(),
  wallet: z.string(),
  amountUsd: z.string(),
  ethUsd: z.string().nullable(),
  status: z.string(),
  payoutTxHash: z.string().nullable(),
});
export const webhookRefundData = z.object({
  id: z.string(),
  source: z.string(),
  orderId: z.string().nullable(),
  paymentId: z.string().nullable(),
  userId: z.string().nullable(),
  wallet: z.string(),
  /** Null when the refund is not in ETH (see asset and amount). */
  amountWei: z.string().nullable(),
  asset: z.enum(ASSETS),
  /** In the asset's smallest units. */
  amount: z.string(),
  amountUsd: z.string().nullable(),
  status: z.string(),
  payoutTxHash: z.string().nullable(),
});
export const webhookPaymentData = z.object({
  id: z.string(),
  /** Null for ETH that arrived with no transaction to show for it. */
  txHash: z.string().nullable(),
  from: z.string().nullable(),
  /** Null when the transfer is not in ETH (see asset and amount). */
  valueWei: z.string().nullable(),
  asset: z.enum(ASSETS),
  /** In the asset's smallest units. */
  amount: z.string().nullable(),
  blockNumber: z.string().nullable(),
  reason: z.string(),
});

const order = { order: webhookOrderData };
/** Each event's `data`. */
export const WEBHOOK_EVENT_DATA = {
  'order.paid': z.object({ ...order, /** Counts the times this order became paid (a reorganization can take it back). */ paidVersion: z.number().int() }),
  'order.underpaid': z.object({ ...order, /** What is still due, USD. */ dueUsd: z.string() }),
  'order.late': z.object({ ...order, payment: z.object({ txHash: z.string(), valueWei: z.string().nullable(), asset: assetJson, amount: z.string(), reason: z.string() }).optional() }),
  'order.expired': z.object(order),
  'order.cancelled': z.object(order),
  'payment.unresolved': z.object({ payment: webhookPaymentData }),
  'cashout.requested': z.object({ cashout: webhookCashoutData }),
  'cashout.paid': z.object({ cashout: webhookCashoutData }),
  'refund.paid': z.object({ refund: webhookRefundData }),
} satisfies Record<WebhookEventType, z.ZodType>;

/** The body of one event as the endpoint receives it. */
export const webhookEventBody = <T extends WebhookEventType>(type: T) =>
  z.object({ type: z.literal(type), timestamp: isoTime, data: WEBHOOK_EVENT_DATA[type] });

/** The Standard Webhooks headers every delivery carries. */
export const WEBHOOK_HEADERS = {
  'webhook-id': "The event's id (msg_...), the same on every attempt: a receiver drops repeats by it.",
  'webhook-timestamp': 'When this attempt was signed, in seconds since 1970 (UTC); receivers refuse stale ones (5 minutes).',
  'webhook-signature':
    "v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}` keyed with the endpoint's secret (the base64 after whsec_)>; several may be given, separated by spaces.",
} as const;
