import { randomBytes, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { AppConfig } from './config.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './contract/webhooks.ts';
import { Prisma } from './db.ts';
import { badRequest } from './errors.ts';
import type { Tx } from './ledger.ts';

/**
 * Webhooks, as the Standard Webhooks specification has them: every event carries a
 * unique id (`webhook-id`, the same on every attempt, so a receiver drops repeats), the
 * attempt's time (`webhook-timestamp`) and `webhook-signature`, an HMAC-SHA256 over
 * `id.timestamp.body` with the endpoint's `whsec_` secret (the `standardwebhooks`
 * package signs; receivers verify with any of its libraries).
 *
 * Events leave through an outbox: `emitEvent` writes the event and one delivery per
 * endpoint that wants it in the caller's transaction, so a change that rolls back sends
 * nothing and a committed one is never lost. The worker hands deliveries to BullMQ
 * (worker/src/processors/webhooks.ts), one subject at a time per endpoint, in order,
 * retried with exponential back-off (the queue registry's webhook-deliver).
 */

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function newEventId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/** The three headers of one attempt. */
export function signWebhook(secret: string, id: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An endpoint URL admins may register: https (plain http only to a loopback host, and
 * only where WEBHOOK_ALLOW_HTTP allows it: development and tests), no credentials in it.
 */
export function webhookUrl(config: Pick<AppConfig, 'webhookAllowHttp'>, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest('url must be a full https:// address');
  }
  const loopback = LOOPBACK.has(url.hostname) || (isIP(url.hostname) === 4 && url.hostname.startsWith('127.'));
  if (url.protocol === 'http:' && !(loopback && config.webhookAllowHttp)) throw badRequest('url must use https://');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest('url must use https://');
  if (url.username || url.password) throw badRequest('url must not carry a user name or password');
  const normalized = url.toString();
  if (normalized.length > 2000) throw badRequest('url is too long (2000 characters at most, once encoded)');
  return normalized;
}

export function webhookEventTypes(raw: readonly string[]): WebhookEventType[] {
  const unknown = raw.filter((t) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0) throw badRequest(`events: unknown event type ${unknown.join(', ')} (one of ${WEBHOOK_EVENT_TYPES.join(', ')})`);
  if (raw.length === 0) throw badRequest('events: choose at least one event type');
  return [...new Set(raw)] as WebhookEventType[];
}

/**
 * Writes an event and its deliveries in the caller's transaction (the outbox). `subject`
 * orders events: an endpoint gets those of one subject in the order they were written.
 */
export async function emitEvent(tx: Tx, type: WebhookEventType, subject: string, data: Record<string, unknown>, now = new Date()): Promise<string> {
  const id = newEventId();
  const payload = { type, timestamp: now.toISOString(), data };
  const rows = await tx.$queryRaw<{ seq: bigint }[]>`
    INSERT INTO "WebhookEvent" ("id", "type", "subject", "payload", "createdAt")
    VALUES (${id}, ${type}, ${subject}, ${JSON.stringify(payload)}::jsonb, ${now})
    RETURNING "seq"`;
  const seq = rows[0]?.seq;
  await tx.$executeRaw`
    INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "subject", "seq", "updatedAt")
    SELECT gen_random_uuid(), ${id}, e."id", ${subject}, ${seq}, now()
    FROM "WebhookEndpoint" e
    WHERE e."enabled" AND e."deletedAt" IS NULL AND ${type} = ANY(e."events")`;
  return id;
}

/** Order fields every order event carries. */
export function orderEventData(order: {
  id: string;
  userId: string;
  status: string;
  totalPrice: Prisma.Decimal;
  paidUsd: Prisma.Decimal;
  overpaidUsd: Prisma.Decimal;
  paidAt: Date | null;
}): Record<string, unknown> {
  return {
    order: {
      id: order.id,
      userId: order.userId,
      status: order.status,
      totalPrice: order.totalPrice.toFixed(2),
      paidUsd: order.paidUsd.toFixed(2),
      overpaidUsd: order.overpaidUsd.toFixed(2),
      paidAt: order.paidAt?.toISOString() ?? null,
    },
  };
}

/** A transfer (or an unexplained inflow) left for an admin. */
export async function emitPaymentUnresolved(
  tx: Tx,
  p: { id: string; txHash: string; source: string; fromAddress: string | null; valueWei: Prisma.Decimal | null; blockNumber: bigint | null },
  reason: string,
): Promise<void> {
  await emitEvent(tx, 'payment.unresolved', `payment:${p.id}`, {
    payment: { id: p.id, txHash: p.source === 'INFLOW' ? null : p.txHash, from: p.fromAddress, valueWei: p.valueWei?.toFixed(0) ?? null, blockNumber: p.blockNumber?.toString() ?? null, reason },
  });
}
