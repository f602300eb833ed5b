import { randomBytes, randomUUID } from 'node:crypto';
import { lookup } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Webhook } from 'standardwebhooks';
import { Agent } from 'undici';
import type { AppConfig } from '../infra/config.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../contract/webhooks.ts';
import { Prisma } from '../infra/db.ts';
import { badRequest } from '../infra/errors.ts';
import type { Tx } from '../books/ledger.ts';

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
 * True for an address on the public internet (ipaddr.js's 'unicast' range); false for
 * loopback, private, link-local (the cloud metadata service), unique-local, carrier-grade
 * NAT, multicast, reserved and unspecified ones, an IPv4 one mapped into IPv6 included,
 * and anything that is not an address.
 */
export function isPublicAddress(address: string): boolean {
  const literal = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(literal)) return false;
  let ip = ipaddr.parse(literal);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    // An IPv4 address inside IPv6: mapped (::ffff:a.b.c.d) or the old compatible form (::a.b.c.d).
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else if (v6.parts.slice(0, 6).every((p) => p === 0) && (v6.parts[6] !== 0 || v6.parts[7]! > 1)) {
      ip = ipaddr.fromByteArray(v6.toByteArray().slice(12));
    }
  }
  return ip.range() === 'unicast';
}

const privateTarget = (address: string) => `url points at a private, loopback or link-local address (${address}): set WEBHOOK_ALLOW_PRIVATE=true to allow it`;

/**
 * An endpoint URL admins may register: https (plain http only to a loopback host, and
 * only where WEBHOOK_ALLOW_HTTP allows it: development and tests), no credentials in it,
 * and, unless WEBHOOK_ALLOW_PRIVATE (development), a host that is and resolves to public
 * addresses only: a webhook is a request the shop makes, never one into its own network.
 * (The worker checks the address again when it connects: a name may resolve elsewhere
 * later; webhookDispatcher.)
 */
export async function webhookUrl(config: Pick<AppConfig, 'webhookAllowHttp' | 'webhookAllowPrivate'>, raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest('URL must be a full https:// address');
  }
  const loopback = LOOPBACK.has(url.hostname) || (isIP(url.hostname) === 4 && url.hostname.startsWith('127.'));
  if (url.protocol === 'http:' && !(loopback && config.webhookAllowHttp)) throw badRequest('URL must use https://');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest('URL must use https://');
  if (url.username || url.password) throw badRequest('URL must not carry a user name or password');
  const normalized = url.toString();
  if (normalized.length > 2000) throw badRequest('URL is too long (2000 characters at most, once encoded)');
  if (!config.webhookAllowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : await lookupAll(host, { all: true }).then((found) => found.map((a) => a.address), () => null);
    if (!addresses || addresses.length === 0) throw badRequest(`url's host ${host} does not resolve`);
    const inside = addresses.find((a) => !isPublicAddress(a));
    if (inside) throw badRequest(privateTarget(inside));
  }
  return normalized;
}

/** Why the worker refused to connect to an endpoint (the attempt's error). */
export class PrivateTargetError extends Error {
  override name = 'PrivateTargetError';
  constructor(readonly address: string) {
    super(`Refused: ${address} is a private, loopback or link-local address (WEBHOOK_ALLOW_PRIVATE)`);
  }
}

/**
 * The HTTP dispatcher webhook deliveries go through. Unless WEBHOOK_ALLOW_PRIVATE, it
 * connects only to public addresses, checked on the addresses it resolves as it connects
 * (a name that pointed outside when it was registered may point inside now: DNS
 * rebinding). An address written in the URL is not resolved: the caller checks it
 * (webhookTargetRefusal).
 */
export function webhookDispatcher(config: Pick<AppConfig, 'webhookAllowPrivate'>): Agent {
  if (config.webhookAllowPrivate) return new Agent();
  const guarded: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, '', 0);
      const list = found as { address: string; family: number }[];
      const inside = list.find((a) => !isPublicAddress(a.address));
      if (inside) return callback(new PrivateTargetError(inside.address), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
  return new Agent({ connect: { lookup: guarded } });
}

/** The refusal for a URL whose host is an address the dispatcher may not reach, or null. */
export function webhookTargetRefusal(config: Pick<AppConfig, 'webhookAllowPrivate'>, url: string): PrivateTargetError | null {
  if (config.webhookAllowPrivate) return null;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return isIP(host) && !isPublicAddress(host) ? new PrivateTargetError(host) : null;
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
  // The event and its deliveries in one statement: a data-modifying WITH runs once,
  // whether or not any endpoint wants the event.
  await tx.$executeRaw`
    WITH event AS (
      INSERT INTO "WebhookEvent" ("id", "type", "subject", "payload", "createdAt")
      VALUES (${id}, ${type}, ${subject}, ${JSON.stringify(payload)}::jsonb, ${now})
      RETURNING "seq")
    INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "subject", "seq", "updatedAt")
    SELECT gen_random_uuid(), ${id}, e."id", ${subject}, event."seq", now()
    FROM event, "WebhookEndpoint" e
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
  p: { id: string; txHash: string; source: string; fromAddress: string | null; asset: string; amount: Prisma.Decimal | null; blockNumber: bigint | null },
  reason: string,
): Promise<void> {
  await emitEvent(tx, 'payment.unresolved', `payment:${p.id}`, {
    payment: { id: p.id, txHash: p.source === 'INFLOW' ? null : p.txHash, from: p.fromAddress, valueWei: p.asset === 'ETH' ? (p.amount?.toFixed(0) ?? null) : null, asset: p.asset, amount: p.amount?.toFixed(0) ?? null, blockNumber: p.blockNumber?.toString() ?? null, reason },
  });
}
