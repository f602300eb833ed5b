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

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
