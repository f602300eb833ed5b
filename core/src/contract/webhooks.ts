import { z } from 'zod';

/** Every event the shop sends to webhook endpoints. */
export const WEBHOOK_EVENT_TYPES = [
  'order.paid',
  'order.underpaid',
  'order.late',
  'order.expired',
  'order.cancelled',
  'payment.unresolved',
  'cashout.requested',
  'cashout.paid',
  'refund.paid',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const events = z.array(z.string().trim().max(50)).max(WEBHOOK_EVENT_TYPES.length * 2, 'lists too many event types');

export const createWebhookBody = z.object({
  url: z.string().trim().min(1, 'is required').max(2000, 'is too long'),
  description: z.string().trim().max(200, 'is too long (200 characters at most)').optional(),
  events: events.optional(),
});

export const updateWebhookBody = z.object({
  url: z.string().trim().min(1, 'is required').max(2000, 'is too long').optional(),
  description: z.string().trim().max(200, 'is too long (200 characters at most)').optional(),
  events: events.optional(),
  enabled: z.boolean().optional(),
});

export type WebhookEndpointJson = {
  _id: string;
  url: string;
  description: string;
  /** whsec_...: the key receivers verify signatures with. */
  /** The signing secret: only in the answer that created the endpoint; otherwise null (POST .../:id/secret reveals it, with a step-up). */
  secret: string | null;
  events: WebhookEventType[];
  enabled: boolean;
  createdAt: string;
  /**
   * Deliveries by status: pending and failed ones (open work: an admin can redeliver a
   * failed one), and delivered ones among those kept, the last WEBHOOK_RETENTION_DAYS.
   */
  counts: { pending: number; delivered: number; failed: number };
};

export type WebhookDeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export type WebhookDeliveryJson = {
  _id: string;
  eventId: string;
  type: WebhookEventType;
  subject: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  /** The most recent attempts first. */
  log: { at: string; statusCode: number | null; error: string | null; durationMs: number }[];
};
